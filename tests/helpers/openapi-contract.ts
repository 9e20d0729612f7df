import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "@/lib/api/app";

// Every answer the HTTP tests receive from the core-api handler is checked against the OpenAPI
// document the server serves: the operation must document the status, and a JSON body must match the
// response schema of that operation and status. A test that receives an undocumented answer fails,
// so the document cannot drift from what the server does.

type ResponseObject = { content?: Record<string, { schema?: unknown }> };
type Operation = { responses: Record<string, ResponseObject> };
type Document = { paths: Record<string, Record<string, Operation>> };

type Contract = {
  document: Document;
  ajv: Ajv2020;
  /** Path templates, most literal first, so `/signings/export` wins over `/signings/{id}`. */
  templates: { template: string; pattern: RegExp }[];
  validators: Map<string, ValidateFunction>;
};

const DOCUMENT_ID = "https://core-api.test/openapi.json";
let contract: Contract | undefined;

function load(): Contract {
  if (contract) return contract;
  const document = openApiDocument() as unknown as Document;
  // strict: false – the document's schemas carry OpenAPI keywords (example, discriminator) JSON Schema does not know.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat("binary", true);
  ajv.addSchema(document as object, DOCUMENT_ID);
  const templates = Object.keys(document.paths)
    .map((template) => ({
      template,
      literal: template.split("/").filter((segment) => segment && !segment.startsWith("{")).length,
      pattern: new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    }))
    .sort((a, b) => b.literal - a.literal);
  contract = { document, ajv, templates, validators: new Map() };
  return contract;
}

const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** Throws when `response` (to `method` `url`) is not an answer the OpenAPI document describes. */
export async function assertDocumentedResponse(method: string, url: string, response: Response): Promise<void> {
  const { document, ajv, templates, validators } = load();
  const path = new URL(url, "http://core-api.test").pathname;
  const match = templates.find((t) => t.pattern.test(path));
  const verb = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
  const operation = match ? document.paths[match.template]![verb] : undefined;
  // Unrouted paths and methods (404/405 from the not-found handler) and the few routes outside the
  // document (the JWKS, the document itself) have no operation to check against.
  if (!match || !operation) return;
  const where = `${method.toUpperCase()} ${match.template}`;
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  // Only JSON is read here: a stream (text/event-stream) never ends, and file bodies are the test's business.
  const text = contentType === "application/json" ? await response.clone().text() : "";
  const documented = operation.responses[String(response.status)] ?? operation.responses.default;
  if (!documented) {
    throw new Error(
      `${where} answered ${response.status}, which the OpenAPI document does not list (it lists ${Object.keys(operation.responses).join(", ")}): ${text.slice(0, 300)}`,
    );
  }
  if (!documented.content || method.toUpperCase() === "HEAD" || response.status === 204) return;
  const mediaTypes = Object.keys(documented.content);
  const mediaType = mediaTypes.find((m) => m === contentType || m === "*/*" || (m.endsWith("/*") && contentType.startsWith(m.slice(0, -1))));
  if (!mediaType) {
    throw new Error(`${where} answered ${response.status} as ${contentType || "no content type"}; the document lists ${mediaTypes.join(", ")}`);
  }
  if (mediaType !== "application/json" || !documented.content[mediaType]!.schema) return;
  const ref = `${DOCUMENT_ID}#/${pointer("paths", match.template, verb, "responses", String(response.status) in operation.responses ? String(response.status) : "default", "content", mediaType, "schema")}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${where} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  if (!validate(body)) {
    throw new Error(
      `${where} answered ${response.status} with a body the OpenAPI document does not describe: ${ajv.errorsText(validate.errors, { separator: "; " })}\n${text.slice(0, 500)}`,
    );
  }
}
