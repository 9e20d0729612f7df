// A GET or HEAD to /v1 must never read `request.body`. On the standalone server (@hono/node-server) the
// request is a lazy object, and reading `.body` materializes a full undici Request with an AbortSignal
// listener parked in a FinalizationRegistry until a major GC; under the session load that per-request
// garbage was promoted to old space and took the core-api to ~370 MB RSS (docs/performance.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld } from "../helpers/fixtures";

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
  await loadDemoWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

/** A Request that counts how often its body is read. */
function countingRequest(path: string, method: string, token: string): { request: Request; bodyReads: () => number } {
  const request = new Request(`http://core-api.test${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  let reads = 0;
  Object.defineProperty(request, "body", {
    get() {
      reads += 1;
      return null;
    },
  });
  return { request, bodyReads: () => reads };
}

describe("bodyless /v1 requests do not touch the request body", () => {
  it.each(["GET", "HEAD"])("%s /v1/signing/session answers 200 without reading request.body", async (method) => {
    const { request, bodyReads } = countingRequest("/v1/signing/session", method, await tokenFor("manager@demo.local"));
    const response = await fetchApi(request);
    expect(response.status).toBe(200);
    expect(bodyReads()).toBe(0);
  });

  it("GET of a list answers 200 without reading request.body", async () => {
    const { request, bodyReads } = countingRequest("/v1/signing/manager/signings?limit=5", "GET", await tokenFor("manager@demo.local"));
    const response = await fetchApi(request);
    expect(response.status).toBe(200);
    expect(bodyReads()).toBe(0);
  });

  it("a POST still goes through the body limit (reads the body)", async () => {
    const { request, bodyReads } = countingRequest("/v1/signing/manager/signings", "POST", await tokenFor("manager@demo.local"));
    await fetchApi(request);
    expect(bodyReads()).toBeGreaterThan(0);
  });
});
