// Under `next start`, /v1 is answered by the core-api before Next's router sees the request
// (lib/next/direct-core-api.ts). Here a plain node:http server stands in for Next's: its own listener
// answers 418 "next", so every response says who served it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEnvForTests } from "@/lib/env";
import { installDirectCoreApi } from "@/lib/next/direct-core-api";
import { tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld } from "../helpers/fixtures";

let testDb: TestDb;
let server: Server;
let base: string;
const originalTitle = process.title;

beforeAll(async () => {
  testDb = await createTestDb();
  await loadDemoWorld(testDb.db);
});
afterAll(async () => {
  process.title = originalTitle;
  setEnvForTests({});
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  await testDb?.cleanup();
});

describe("where the direct /v1 path is installed", () => {
  it("not outside a next-server process, not in development, not with V1_THROUGH_NEXT_ROUTER=1", () => {
    process.title = "node";
    setEnvForTests({ NODE_ENV: "production" });
    expect(installDirectCoreApi()).toBe(false);
    process.title = "next-server (v16.4.5)";
    setEnvForTests({ NODE_ENV: "development" });
    expect(installDirectCoreApi()).toBe(false);
    setEnvForTests({ NODE_ENV: "production", V1_THROUGH_NEXT_ROUTER: "1" });
    expect(installDirectCoreApi()).toBe(false);
  });
});

describe("a next-server process in production", () => {
  beforeAll(async () => {
    process.title = "next-server (v16.4.5)";
    setEnvForTests({ NODE_ENV: "production" });
    expect(installDirectCoreApi()).toBe(true);
    server = createServer((_request, response) => {
      response.writeHead(418, { "content-type": "text/plain" }).end("next");
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  it.each(["/v1/signing/session", "/api/v1/signing/session"])("GET %s is the core-api's session of the token's user", async (path) => {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${await tokenFor("manager@demo.local")}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { user: { email: string }; capabilities: string[] };
    expect(body.user.email).toBe("manager@demo.local");
    expect(body.capabilities.length).toBeGreaterThan(0);
  });

  it("a /v1 request without a token gets the API's 401 JSON, not a page", async () => {
    const response = await fetch(`${base}/v1/signing/session`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toEqual(expect.any(String));
  });

  it("a POST body reaches the API: malformed JSON is its 400, an over-cap body its 413", async () => {
    const token = await tokenFor("manager@demo.local");
    const malformed = await fetch(`${base}/v1/signing/manager/signings`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    const tooLarge = await fetch(`${base}/v1/signing/manager/signings`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(tooLarge.status).toBe(413);
    // The refused body is not read: the server closes that connection rather than reuse it.
    expect(tooLarge.headers.get("connection")).toBe("close");
  });

  it.each(["/", "/health", "/api/health", "/v1x", "/api/v10/x", "/signings/v1", "/sign-in?next=/v1/x"])("%s stays with Next", async (path) => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(418);
    expect(await response.text()).toBe("next");
  });
});
