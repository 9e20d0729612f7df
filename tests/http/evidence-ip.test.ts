import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setEnvForTests } from "@/lib/env";
import { fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";

// The standalone core-api on a real socket: the recorded signer IP is the peer unless proxies are trusted.
let testDb: TestDb;
let world: DemoWorld;
let server: ServerType;
let base: string;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  server = serve({ fetch: (request, env) => fetchApi(request, env), port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await testDb.cleanup();
});
afterEach(() => setEnvForTests({}));

let counter = 0;
async function signWithForwardedFor(forwardedFor: string) {
  counter += 1;
  const email = `evidence-${counter}@demo.local`;
  const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: `Evidence ${counter}`, signers: [{ email }] });
  const document = pkg.documents[0]!;
  const res = await fetch(`${base}/v1/signing/signer/signings/${pkg.id}/documents/${document.id}/esignatures`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${await tokenFor(email)}`,
      "content-type": "application/json",
      "x-forwarded-for": forwardedFor,
      "x-real-ip": "203.0.113.99",
    },
    body: JSON.stringify({ kind: "drawn", imageDataUrl: pngDataUrl(), consent: true, documentSha256: document.sha256 }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { id: string; ipAddress: string | null };
  const recorded = (await auditEntriesFor(testDb.db, pkg.id)).find((entry) => entry.entityId === body.id);
  return { response: body.ipAddress, audit: recorded?.ipAddress };
}

describe("evidence IP on the standalone core-api", () => {
  it("without TRUSTED_PROXY_HOPS a client-sent X-Forwarded-For is ignored: the socket address is recorded", async () => {
    expect(await signWithForwardedFor("203.0.113.7")).toEqual({ response: "127.0.0.1", audit: "127.0.0.1" });
  });

  it("with TRUSTED_PROXY_HOPS=1 the rightmost entry (the proxy's) is recorded, not the forged left one", async () => {
    setEnvForTests({ TRUSTED_PROXY_HOPS: "1" });
    expect(await signWithForwardedFor("6.6.6.6, 198.51.100.23")).toEqual({ response: "198.51.100.23", audit: "198.51.100.23" });
  });
});
