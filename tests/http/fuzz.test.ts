import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld } from "../helpers/fixtures";

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
    expect(res.body).toEqual({ error: expect.any(String) });
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
        expect(res.body).toEqual({ error: expect.any(String) });
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
