import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";

let testDb: TestDb;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  testDb = await createTestDb();
  await loadDemoWorld(testDb.db);
  for (const email of ["manager@demo.local", "signer@demo.local", "admin@demo.local"]) tokens[email] = await tokenFor(email);
});
afterAll(() => testDb.cleanup());

function expectClientError(res: { status: number; body: unknown }) {
  expect(res.status).toBeLessThan(500);
  if (res.status >= 400) {
    expect(ErrorBody.safeParse(res.body).success, JSON.stringify(res.body)).toBe(true);
  }
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const bodyLike = fc.oneof(
  jsonValue,
  fc.record({ locationId: fc.oneof(jsonValue, fc.integer(), fc.double()) }, { requiredKeys: [] }),
  fc.record({ locationId: fc.integer({ min: -5, max: 10 }), title: fc.oneof(fc.string(), jsonValue) }),
);

describe("malformed input never produces a 5xx", () => {
  it("POST /v1/signing/manager/signings with arbitrary JSON bodies, as any role", async () => {
    await fc.assert(
      fc.asyncProperty(bodyLike, fc.constantFrom(...Object.keys(tokens)), async (body, email) => {
        const res = await callApi("/v1/signing/manager/signings", { method: "POST", token: tokens[email], json: body });
        expectClientError(res);
      }),
      { numRuns: 150 },
    );
  });

  it("arbitrary raw bodies and content types", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/json; charset=latin1", ""),
        async (body, contentType) => {
          const headers: Record<string, string> = contentType ? { "content-type": contentType } : {};
          const res = await callApi("/v1/signing/manager/signings", { method: "POST", token: tokens["manager@demo.local"], headers, body });
          expectClientError(res);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("arbitrary Authorization headers", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (value) => {
        let res;
        try {
          res = await callApi("/v1/signing/session", { headers: { authorization: value } });
        } catch {
          return; // Headers the fetch API itself refuses (newlines, NUL) never reach a server.
        }
        expect(res.status).toBe(401);
        expect(ErrorBody.safeParse(res.body).success, JSON.stringify(res.body)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("arbitrary paths and methods under /v1", async () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~%-]{1,12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
        async (segments, method) => {
          const res = await callApi(`/v1/${segments.join("/")}`, { method, token: tokens["manager@demo.local"] });
          expectClientError(res);
        },
      ),
      { numRuns: 150 },
    );
  });
});

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
};
type Operation = {
  parameters?: { name: string; in: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type OpenApi = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, JsonSchema> } };

const NUL_TEXT = "a\u0000b";

/**
 * A body for `schema` in which every string is `a\u0000b` and everything else takes its first
 * admissible value, so the only thing wrong with it is the control character. `hasString` reports
 * whether any string was placed at all (a body without one cannot carry the character).
 */
function nulBody(schema: JsonSchema, doc: OpenApi, state = { hasString: false }, depth = 0): unknown {
  if (depth > 8) return null;
  if (schema.$ref) return nulBody(doc.components!.schemas![schema.$ref.split("/").pop()!]!, doc, state, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.find((s) => s.type !== "null") ?? schema.allOf?.[0];
  if (variant) return nulBody(variant, doc, state, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      state.hasString = true;
      return NUL_TEXT;
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array":
      return schema.items ? [nulBody(schema.items, doc, state, depth + 1)] : [];
    case "object":
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, nulBody(v, doc, state, depth + 1)]));
    default:
      return null;
  }
}

describe("U+0000 in any JSON string or query parameter answers 400, on every operation", () => {
  const ID = "01936d3c-8f2a-7b4e-9c1d-2e3f4a5b6c7d";
  let doc: OpenApi;
  let operations: { method: string; path: string; op: Operation }[];
  /** Fills path parameters with a well-formed id (an integer where the parameter's example is one), or with `value`. */
  const fill = (path: string, op: Operation, value?: string) =>
    path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (value) return value;
      const param = op.parameters?.find((p) => p.in === "path" && p.name === name) as { example?: unknown; schema?: { example?: unknown } } | undefined;
      return /^\d+$/.test(String(param?.example ?? param?.schema?.example ?? "")) ? "1" : ID;
    });

  beforeAll(async () => {
    const res = await callApi("/v1/openapi.json", { token: tokens["manager@demo.local"] });
    doc = res.body as OpenApi;
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
  });

  it("bodies: every JSON string field carrying U+0000, as a manager and as an org admin", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const { method, path, op } of operations) {
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      if (!schema) continue;
      const state = { hasString: false };
      const body = nulBody(schema, doc, state);
      if (!state.hasString) continue;
      for (const email of ["manager@demo.local", "admin@demo.local"]) {
        const res = await callApi(fill(path, op), { method, token: tokens[email], json: body });
        checked++;
        if (res.status !== 400 || typeof (res.body as { error?: unknown })?.error !== "string") {
          failures.push(`${method} ${path} as ${email}: ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  it("query parameters: each one carrying U+0000", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const { method, path, op } of operations) {
      for (const param of (op.parameters ?? []).filter((p) => p.in === "query")) {
        const res = await callApi(`${fill(path, op)}?${param.name}=${encodeURIComponent(NUL_TEXT)}`, { method, token: tokens["manager@demo.local"] });
        checked++;
        if (res.status !== 400) failures.push(`${method} ${path}?${param.name}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(failures).toEqual([]);
  });

  it("path parameters carrying U+0000 answer a 4xx, never a 5xx", async () => {
    const failures: string[] = [];
    for (const { method, path, op } of operations) {
      if (!path.includes("{")) continue;
      const res = await callApi(fill(path, op, encodeURIComponent(NUL_TEXT)), { method, token: tokens["manager@demo.local"] });
      if (res.status < 400 || res.status >= 500) failures.push(`${method} ${path}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });
});
