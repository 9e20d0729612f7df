import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, createDraft, createReadyDraft, loadManagerWorld } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";

// Malformed bodies, ids and queries at the manager operations: never a 5xx, always `{ error }` on a 4xx.

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;
let draftId: string;
let sentId: string;
let templateId: string;
let flowId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
  draftId = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "S", email: "s@example.com" }] });
  sentId = await createReadyDraft("manager@demo.local", world.austin.id);
  await as("manager@demo.local", `${BASE}/signings/${sentId}/send`, { method: "POST" });
  const template = await as("manager@demo.local", `${BASE}/templates`, { method: "POST", json: { organizationId: world.austin.organizationId, name: "T" } });
  templateId = (template.body as { id: string }).id;
  const flows = await as("manager@demo.local", `${BASE}/flows`);
  flowId = (flows.body as { data: { id: string }[] }).data[0]!.id;
});
afterAll(() => testDb.cleanup());

function expectClientError(res: { status: number; body: unknown }) {
  expect(res.status).toBeLessThan(500);
  // The wire error: a message, and a machine reason when the refusal has one.
  if (res.status >= 400) expect(ErrorBody.safeParse(res.body).success, JSON.stringify(res.body)).toBe(true);
}

const roles = fc.constantFrom("manager@demo.local", "branch@demo.local", "signer@demo.local", "admin@demo.local", "owner@demo.local", "manager@other.local");
const json = fc.jsonValue({ maxDepth: 3 });
const fieldish = (keys: string[]) =>
  fc.oneof(
    json,
    fc.dictionary(fc.constantFrom(...keys), fc.oneof(json, fc.integer(), fc.double(), fc.string(), fc.constant(null)), { maxKeys: keys.length }),
  );

const writes: [string, string, () => string, string[]][] = [
  ["POST", "create signing", () => `${BASE}/signings`, ["locationId", "title", "message", "templateId", "flowId", "signers"]],
  ["PATCH", "edit signing", () => `${BASE}/signings/${draftId}`, ["title", "message", "flowId", "expiresAt"]],
  ["POST", "cancel", () => `${BASE}/signings/${sentId}/cancel`, ["reason"]],
  ["POST", "add signer", () => `${BASE}/signings/${draftId}/signers`, ["name", "email", "role", "routingOrder"]],
  ["POST", "create organization", () => `${BASE}/organizations`, ["name", "slug"]],
  ["PATCH", "rename organization", () => `${BASE}/organizations/${world.austin.organizationId}`, ["name"]],
  ["POST", "create company", () => `${BASE}/companies`, ["organizationId", "name"]],
  ["POST", "create location", () => `${BASE}/locations`, ["companyId", "name", "city", "timezone", "postalCode"]],
  ["PATCH", "edit location", () => `${BASE}/locations/${world.dallas.id}`, ["name", "city", "timezone", "addressLine1"]],
  ["POST", "create template", () => `${BASE}/templates`, ["organizationId", "name", "description", "roles"]],
  ["PATCH", "edit template", () => `${BASE}/templates/${templateId}`, ["name", "description", "roles"]],
  ["POST", "create flow", () => `${BASE}/flows`, ["organizationId", "name", "steps", "isDefault"]],
  ["PATCH", "edit flow", () => `${BASE}/flows/${flowId}`, ["name", "steps", "isDefault"]],
];

describe("manager operations never answer 5xx to malformed input", () => {
  it.each(writes)("%s %s with arbitrary JSON bodies, as any role", async (method, _, path, keys) => {
    await fc.assert(
      fc.asyncProperty(fieldish(keys), roles, async (body, email) => {
        expectClientError(await as(email, path(), { method, json: body }));
      }),
      { numRuns: 40 },
    );
  });

  it("arbitrary ids and sub-paths under the manager resources", async () => {
    const id = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9._~%-]{1,40}$/),
      fc.uuid(),
      fc.integer().map(String),
      fc.constant("9".repeat(30)),
      fc.constant("-1"),
    );
    const template = fc.constantFrom(
      "signings/{id}",
      "signings/{id}/send",
      "signings/{id}/cancel",
      "signings/{id}/signers",
      "signings/{id}/signers/{id}",
      "signings/{id}/documents",
      "signings/{id}/documents/{id}",
      "signings/{id}/documents/{id}/file",
      "organizations/{id}",
      "companies/{id}",
      "locations/{id}",
      "templates/{id}",
      "templates/{id}/documents",
      "templates/{id}/documents/{id}",
      "templates/{id}/documents/{id}/file",
      "flows/{id}",
    );
    await fc.assert(
      fc.asyncProperty(template, id, id, fc.constantFrom("GET", "POST", "PATCH", "DELETE"), roles, async (t, a, b, method, email) => {
        const path = `${BASE}/${t.replace("{id}", encodeURIComponent(a)).replace("{id}", encodeURIComponent(b))}`;
        expectClientError(await as(email, path, { method, json: method === "PATCH" ? { name: "x" } : undefined }));
      }),
      { numRuns: 250 },
    );
  });

  it("arbitrary list queries", async () => {
    const list = fc.constantFrom("signings", "organizations", "companies", "locations", "templates", "flows");
    const value = fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.constantFrom("draft", "sent", "", "-1", "1e9"));
    const query = fc.dictionary(fc.constantFrom("limit", "cursor", "status", "locationId", "companyId", "organizationId", "q"), value, { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(list, query, roles, async (resource, q, email) => {
        expectClientError(await as(email, `${BASE}/${resource}?${new URLSearchParams(q).toString()}`));
      }),
      { numRuns: 200 },
    );
  });

  it("arbitrary upload bodies and content types", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.string({ maxLength: 200 }).map((s) => `%PDF-1.4\n${s}`)),
        fc.constantFrom("application/pdf", "multipart/form-data", "multipart/form-data; boundary=zz", "application/json", "text/plain", ""),
        fc.constantFrom(`${BASE}/signings/{draft}/documents`, `${BASE}/templates/{template}/documents`),
        async (bytes, type, path) => {
          const body = typeof bytes === "string" ? bytes : (bytes as Uint8Array<ArrayBuffer>);
          const res = await as("manager@demo.local", path.replace("{draft}", draftId).replace("{template}", templateId), {
            method: "POST",
            body,
            headers: type ? { "content-type": type } : {},
          });
          expectClientError(res);
          expect(res.status).not.toBe(201);
        },
      ),
      { numRuns: 120 },
    );
  });
});
