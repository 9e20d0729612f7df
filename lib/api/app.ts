import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { getDb } from "@/lib/db/process-db";
import { resolvePrincipal } from "@/lib/auth/principal";
import { parseBearer, verifyAccessToken } from "@/lib/auth/verify-access-token";
import { getJwks } from "@/lib/auth/local-keys";
import { MAX_PDF_BYTES, MAX_UPLOADED_PDF_BYTES } from "@/lib/pdf/validate-pdf-upload";
import { AppError, INVALID_JSON_MESSAGE, MethodNotAllowed, NotFound, toErrorResponse } from "@/lib/errors";
import { log } from "@/lib/log";
import { clientIp } from "./client-ip";
import type { ApiEnv } from "./context";
import { manager } from "./routes/manager";
import { comments } from "./routes/comments";
import { documents } from "./routes/documents";
import { managerSignings } from "./routes/manager-signings";
import { outreach } from "./routes/outreach";
import { probes } from "./routes/probes";
import { session } from "./routes/session";
import { workspace } from "./routes/workspace";
import { webhooks } from "./routes/webhooks";
import { registerWebhookEvents } from "./register-webhook-events";
import { signer } from "./routes/signer";
import { uploadRoutes } from "./routes/uploads";
import { vault } from "./routes/vault";
import { validationHook } from "./validation";
import { getPath } from "hono/utils/url";
import { capBody } from "./cap-body";
import { idempotency } from "./idempotency";

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
const UPLOAD_BODY_LIMIT_BYTES = MAX_PDF_BYTES + 64 * 1024;
const ESIGNATURE_PATH = /\/esignatures\/?$/;
/** A direct upload's bytes (PUT, embedded storage): authenticated by its single-use token, not a Bearer token. */
const UPLOAD_CONTENT_PATH = /^\/v1\/uploads\/[^/]+\/content\/?$/;
/**
 * Creates whose answer is a single-use secret (a direct upload's PUT URL, an embedded or in-person
 * signing URL): an `Idempotency-Key` is ignored there, so the secret is never kept in
 * `idempotency_keys` nor handed out twice; a retry issues a new one and the unused one expires.
 */
const SECRET_ANSWER_PATH = /^\/v1\/(uploads|signing\/manager\/signings\/[^/]+\/signers\/[^/]+\/(embedded-url|in-person-url))\/?$/;
const UPLOAD_PATH =
  /^\/v1\/(signing\/manager\/(signings|templates)\/[^/]+\/documents|signing\/manager\/signings\/[^/]+\/scanbacks|signing\/signer\/signings\/[^/]+\/attachments\/[^/]+\/files|documents\/[^/]+\/files)\/?$/;

const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Closing & Signing API",
    version: "1.0.0",
    description:
      "Every /v1 operation takes `Authorization: Bearer <token>`. Errors are `{ \"error\": string }`, with a machine " +
      "`reason` (see the ErrorReason schema) on the refusals a client may want to branch on. " +
      "Lists use `?limit=&cursor=` and answer `{ data, nextCursor }`.",
    // The service is not open source: its API is licensed to the workspaces that use it, under their agreement.
    license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
  },
  // Paths are absolute from the host serving this document: the web app, or the standalone core-api.
  servers: [{ url: "/", description: "The host that serves this document (the web app or the standalone core-api)" }],
  security: [{ bearerAuth: [] }],
};

/** `/api/v1…` read as `/v1…`; every other path as it is. */
export function v1PathOf(path: string): string {
  return path.startsWith("/api/v1") && (path.length === 7 || path[7] === "/") ? path.slice(4) : path;
}

/** The core-api fetch handler: probes, the JWKS and `/v1`. Mounted in Next and served standalone. */
export function createApiApp(): OpenAPIHono<ApiEnv> {
  // `/api/v1/…` is the same operation as `/v1/…` (Next serves both paths): the router reads the
  // `/v1` path, so a request is handed over as it came, without re-creating it under another URL.
  const app = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook, getPath: (request) => v1PathOf(getPath(request)) });
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });

  app.route("/", probes);
  app.get("/.well-known/jwks.json", (c) => c.json(getJwks(), 200, { "Cache-Control": "public, max-age=300" }));

  app.use("/v1/*", async (c, next) => {
    // The one place a /v1 request gets its database and evidence IP; handlers read c.get("db") and c.get("ipAddress").
    c.set("ipAddress", clientIp(c));
    if (c.req.method === "PUT" && UPLOAD_CONTENT_PATH.test(c.req.path)) {
      c.set("db", await getDb());
      return next();
    }
    const token = parseBearer(c.req.header("authorization"));
    const { subject } = await verifyAccessToken(token);
    const db = await getDb();
    c.set("db", db);
    c.set("principal", await resolvePrincipal(db, subject));
    await next();
  });
  const jsonBodyLimit = capBody(JSON_BODY_LIMIT_BYTES, () => new AppError("payload_too_large", `Request body exceeds ${JSON_BODY_LIMIT_BYTES} bytes.`));
  // Uploads (package and template PDFs, scanbacks, chattel document files) get the document cap plus multipart overhead;
  // every other /v1 body keeps the 1 MiB JSON limit.
  const uploadBodyLimit = capBody(
    UPLOAD_BODY_LIMIT_BYTES,
    () => new AppError("payload_too_large", `The upload exceeds the ${MAX_PDF_BYTES / 1024 / 1024} MiB limit.`),
  );
  const uploadContentLimit = capBody(
    MAX_UPLOADED_PDF_BYTES,
    () => new AppError("payload_too_large", `The file exceeds the ${MAX_UPLOADED_PDF_BYTES / 1024 / 1024} MiB limit of an uploaded PDF.`),
  );
  // GET and HEAD carry no body (@hono/node-server never gives them one), so they skip the cap: reading
  // `c.req.raw.body` on the standalone server materializes a full undici Request with an AbortSignal
  // whose listener sits in a FinalizationRegistry until a major GC. Under the session load that
  // per-request garbage was promoted to old space and drove peak RSS to ~370 MB (docs/performance.md).
  app.use("/v1/*", (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    if (method === "PUT" && UPLOAD_CONTENT_PATH.test(c.req.path)) return uploadContentLimit(c, next);
    return (method === "POST" && UPLOAD_PATH.test(c.req.path) ? uploadBodyLimit : jsonBodyLimit)(c, next);
  });

  // Idempotency-Key on every create; the e-signature keeps its own (a retry there answers 200 with the
  // existing record), and a create whose answer is a single-use secret keeps none.
  app.use("/v1/*", (c, next) => (c.req.method === "POST" && !ESIGNATURE_PATH.test(c.req.path) && !SECRET_ANSWER_PATH.test(c.req.path) ? idempotency(c, next) : next()));

  app.route("/", session);
  app.route("/", managerSignings);
  app.route("/", documents);
  app.route("/", comments);
  app.route("/", outreach);
  app.route("/", workspace);
  app.route("/", webhooks);
  registerWebhookEvents(app);
  app.route("/", manager);
  app.route("/", signer);
  app.route("/", uploadRoutes);
  app.route("/", vault);

  let document: unknown;
  // GET /v1/openapi.json – the OpenAPI 3.1 document generated from the request and response schemas.
  app.get("/v1/openapi.json", (c) => {
    document ??= openApiDocument(app);
    return c.json(document as object);
  });

  const allowedMethods = methodIndex(app);
  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    const error = allowed.length > 0 ? MethodNotAllowed(allowed) : NotFound(`No route for ${c.req.method} ${c.req.path}.`);
    return errorResponse(c, error);
  });
  app.onError((error, c) => errorResponse(c, error));
  return app;
}

type OpenApiDocument = ReturnType<OpenAPIHono<ApiEnv>["getOpenAPI31Document"]>;

/** The OpenAPI 3.1 document `GET /v1/openapi.json` serves (also written out by `npm run openapi`). */
export function openApiDocument(app: OpenAPIHono<ApiEnv> = getApiApp()): OpenApiDocument {
  return withMiddlewareAnswers(app.getOpenAPI31Document(OPENAPI_INFO));
}

const errorAnswer = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });
const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: false,
  description:
    "Retry safely: the first request with a key runs and its answer is kept 24 hours; the same key with the same body answers " +
    "that answer again (header `Idempotent-Replayed: true`) and creates nothing; with another body it is a 422; while the first " +
    "is still running, a 409. 1 to 255 printable ASCII characters without spaces (a UUID is a good key).",
  schema: { type: "string" as const, minLength: 1, maxLength: 255 },
};
const OPERATION_METHODS = new Set(["get", "put", "post", "delete", "patch"]);

/**
 * The answers the /v1 middleware gives before any route runs, added to every operation they apply
 * to (where the route did not describe them itself): 401 from the token check, 503 when the database
 * is unreachable, 413 from the body cap on every method but GET, and 400 for parameters or a body
 * the route's schemas refuse.
 */
function withMiddlewareAnswers(document: OpenApiDocument): OpenApiDocument {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith("/v1/") || !item) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!OPERATION_METHODS.has(method) || !operation || typeof operation !== "object" || !("responses" in operation)) continue;
      const responses = operation.responses as Record<string, unknown>;
      const add = (status: number, description: string) => (responses[String(status)] ??= errorAnswer(description));
      if (operation.parameters?.length || operation.requestBody) add(400, "Invalid request body or parameters");
      add(401, "Missing, malformed, invalid or expired Bearer token");
      if (method === "post" && !ESIGNATURE_PATH.test(path)) {
        operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
        add(400, "Invalid request body or parameters");
        add(409, "The resource is not in a state that allows this, or a request with the same Idempotency-Key is still in progress");
        add(422, "The Idempotency-Key was already used with another request (method, path or body)");
      }
      if (method !== "get") add(413, `The request body exceeds its limit (${JSON_BODY_LIMIT_BYTES} bytes for JSON)`);
      add(503, "A required dependency (the database) is unavailable");
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  return document;
}

function errorResponse(c: Context, error: unknown): Response {
  if (error instanceof HTTPException && !(error.cause instanceof AppError)) {
    // Hono's validators throw 400 for unparsable JSON and 415 for another media type; the spec's
    // status table has no 415, so both are the 400 "invalid request body" it describes.
    if (error.status === 400) return c.json({ error: INVALID_JSON_MESSAGE }, 400);
    if (error.status === 415) return c.json({ error: "Request body must be JSON, sent with Content-Type: application/json." }, 400);
    return c.json({ error: error.message || "Request failed." }, error.status);
  }
  const cause = error instanceof HTTPException ? error.cause : error;
  const { status, body, headers } = toErrorResponse(cause, (e) =>
    log.error("unhandled error", { method: c.req.method, path: c.req.path, error: e }),
  );
  return c.json(body, status as 400, headers);
}

/**
 * Hono answers an unmatched method with 404; the API owes 405 with `Allow`. This indexes the
 * registered routes once so the not-found handler can tell "no such path" from "wrong method".
 */
function methodIndex(app: OpenAPIHono<ApiEnv>): (path: string) => string[] {
  let routes: { method: string; pattern: RegExp }[] | undefined;
  return (path) => {
    routes ??= app.routes
      .filter((r) => r.method !== "ALL" && !r.path.endsWith("*"))
      .map((r) => ({
        method: r.method,
        // No trailing slash: Hono routes "/signings/" nowhere, so it is a 404, not a 405 naming GET.
        pattern: new RegExp(`^${r.path.replace(/[.]/g, "\\.").replace(/:[^/]+/g, "[^/]+")}$`),
      }));
    const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}

let singleton: OpenAPIHono<ApiEnv> | undefined;

export function getApiApp(): OpenAPIHono<ApiEnv> {
  singleton ??= createApiApp();
  return singleton;
}
