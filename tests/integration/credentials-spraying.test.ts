import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as nextAuthRoute from "@/app/api/auth/[...nextauth]/route";
import { authThrottles } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { stampPeerAddress } from "@/lib/net/peer-address-stamp.mjs";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";

// Password spraying through next-auth's real credentials callback, on a real socket: the client
// address comes from the socket (as under `npm start`, with the web server's peer stamp and
// TRUSTED_PROXY_HOPS unset), never from a header the client writes.

let testDb: TestDb;
let server: Server;
let base: string;

beforeAll(async () => {
  testDb = await createTestDb();
  setEnvForTests({});
  server = createServer(async (req, res) => {
    stampPeerAddress(req);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(`${base}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
    });
    const segments = new URL(request.url).pathname.replace(/^\/api\/auth\//, "").split("/");
    const handler = req.method === "POST" ? nextAuthRoute.POST : nextAuthRoute.GET;
    const response = await inNextRequestScope(request, async () => handler(request, { params: Promise.resolve({ nextauth: segments }) }));
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => (out[name] = value));
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out["set-cookie"] = cookies;
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await testDb.cleanup();
});

async function csrf(): Promise<{ token: string; cookie: string }> {
  const response = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { token: csrfToken, cookie };
}

async function wrongPassword(email: string, session: { token: string; cookie: string }, forwardedFor?: string): Promise<number> {
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: session.cookie,
      ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
    },
    body: new URLSearchParams({ email, password: "not-the-password", csrfToken: session.token, json: "true" }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe("password spraying through POST /api/auth/callback/credentials", () => {
  it("refuses one client with 429 once it failed 50 times, whichever (non-existent) accounts it tried, forged X-Forwarded-For or not", async () => {
    // The first 40 failures of this client, as earlier attempts would have left them (each attempt
    // past the 10th is slowed by up to 3 s; sending all 60 would take minutes).
    const now = new Date();
    await testDb.db.insert(authThrottles).values({ key: "client:127.0.0.1", failures: 40, windowStartedAt: now, lockedUntil: null, updatedAt: now });
    const session = await csrf();
    const statuses: number[] = [];
    for (let i = 41; i <= 60; i++) statuses.push(await wrongPassword(`nobody-${i}@spray.example`, session, `198.51.100.${i}`));
    // Attempts 41–50 are wrong passwords (401); the 50th locks the client; 51–60 are refused before next-auth runs.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(10).fill(429));
  }, 120_000);
});
