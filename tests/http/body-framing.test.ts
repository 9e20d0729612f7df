// /v1 requests framed the ways real clients frame them, through @hono/node-server on a real socket, with
// the adapter's global Request override on (the standalone server) and off (a process that shares its
// globals): no body and no Content-Length (curl -X DELETE), Content-Length: 0, chunked, over the cap.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signingPackages } from "@/db/schema";
import { JSON_BODY_LIMIT_BYTES } from "@/lib/api/app";
import { exchangeRaw } from "../helpers/raw-http";
import { fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld } from "../helpers/fixtures";

let testDb: TestDb;
/** The demo draft at Dallas: no signer yet. */
let draftId: string;
let manager: string;
let signer: string;
const servers: Server[] = [];
const globalRequest = globalThis.Request;

async function listen(overrideGlobalObjects: boolean): Promise<{ host: string; port: number }> {
  const server = createServer(getRequestListener((request, env) => fetchApi(request, env), { overrideGlobalObjects }));
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { host: "127.0.0.1", port: (server.address() as AddressInfo).port };
}

function raw(method: string, path: string, token: string, extra: string[] = [], body = ""): string {
  return [`${method} ${path} HTTP/1.1`, "Host: api.test", "User-Agent: curl/8.5.0", "Accept: */*", `Authorization: Bearer ${token}`, "Connection: close", ...extra, "", body].join("\r\n");
}

const chunked = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;

beforeAll(async () => {
  testDb = await createTestDb();
  const world = await loadDemoWorld(testDb.db);
  const [draft] = await testDb.db
    .select({ id: signingPackages.id })
    .from(signingPackages)
    .where(and(eq(signingPackages.locationId, world.dallas.id), eq(signingPackages.status, "draft")));
  draftId = draft!.id;
  manager = await tokenFor("manager@demo.local");
  signer = await tokenFor("signer@demo.local");
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  await testDb?.cleanup();
});

describe.each([
  { mode: "globals left alone", override: false },
  { mode: "globals replaced by the adapter (the standalone server)", override: true },
])("/v1 through @hono/node-server, $mode", ({ override }) => {
  let target: { host: string; port: number };
  beforeAll(async () => {
    target = await listen(override);
  });
  afterAll(() => {
    // The override is process-wide: the next block starts from Node's own Request again.
    Object.defineProperty(globalThis, "Request", { value: globalRequest, writable: true, configurable: true });
  });

  it("a DELETE without a body or Content-Length reaches its handler (404 for a document the package does not have)", async () => {
    const answer = await exchangeRaw(target, raw("DELETE", `/v1/signing/manager/signings/${draftId}/documents/01900000-0000-7000-8000-000000000000`, manager));
    expect(answer.status).toBe(404);
  });

  it("a POST without a body or Content-Length is the operation's answer (send a draft with no signer: 409)", async () => {
    const answer = await exchangeRaw(target, raw("POST", `/v1/signing/manager/signings/${draftId}/send`, manager));
    expect(answer.status).toBe(409);
    expect(JSON.parse(answer.body)).toEqual({ error: "A signing package needs at least one signer before it can be sent." });
  });

  it("a signer calling a manager's DELETE without a body is refused with 403", async () => {
    const answer = await exchangeRaw(target, raw("DELETE", `/v1/signing/manager/signings/${draftId}`, signer));
    expect(answer.status).toBe(403);
  });

  it("a chunked JSON body is read and validated", async () => {
    const answer = await exchangeRaw(target, raw("POST", "/v1/signing/manager/signings", manager, ["Content-Type: application/json", "Transfer-Encoding: chunked"], chunked("{}")));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: expect.stringMatching(/^Invalid request body/) });
  });

  it("a chunked body past the cap is 413", async () => {
    const big = JSON.stringify({ title: "x".repeat(JSON_BODY_LIMIT_BYTES) });
    const answer = await exchangeRaw(target, raw("POST", "/v1/signing/manager/signings", manager, ["Content-Type: application/json", "Transfer-Encoding: chunked"], chunked(big)));
    expect(answer.status).toBe(413);
  });

  it("a declared Content-Length past the cap is 413 before the body is sent", async () => {
    const answer = await exchangeRaw(target, raw("POST", "/v1/signing/manager/signings", manager, ["Content-Type: application/json", `Content-Length: ${JSON_BODY_LIMIT_BYTES + 1}`]));
    expect(answer.status).toBe(413);
  });
});
