import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as nextAuthRoute from "@/app/api/auth/[...nextauth]/route";
import * as tokenRoute from "@/app/api/auth/token/route";
import * as exchangeRoute from "@/app/api/bank/exchange/route";
import * as linkTokenRoute from "@/app/api/bank/link-token/route";
import * as inngestRoute from "@/app/api/inngest/route";
import * as v1Route from "@/app/api/v1/[[...path]]/route";
import * as bankWebhookRoute from "@/app/api/webhooks/bank/route";
import * as emailWebhookRoute from "@/app/api/webhooks/email/route";
import * as identityWebhookRoute from "@/app/api/webhooks/identity/route";
import * as paymentsWebhookRoute from "@/app/api/webhooks/payments/route";
import * as smsWebhookRoute from "@/app/api/webhooks/sms/route";
import { setEnvForTests } from "@/lib/env";
import { callApi, tokenFor } from "@/tests/helpers/api";
import { sessionCookieFor } from "@/tests/helpers/bank";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { createUser } from "@/tests/helpers/fixtures";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";

const KiB = 1024;
const MiB = 1024 * KiB;
const CHUNK = 64 * KiB;

let testDb: TestDb;
let cookie: string;
let token: string;

beforeAll(async () => {
  testDb = await createTestDb();
  const user = await createUser(testDb.db, "caps@example.com", []);
  cookie = await sessionCookieFor(user);
  token = await tokenFor("caps@example.com");
});

afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

type Handler = (request: Request, context?: unknown) => Promise<Response> | Response;

/**
 * A sender that would stream 200 MB without a Content-Length, one 64 KiB chunk per pull; `pulled`
 * counts what the server actually asked for, so buffering the whole body shows up as 200 MB pulled.
 */
function endlessRequest(url: string, method: string, headers: Record<string, string> = {}) {
  const state = { pulled: 0 };
  const chunk = new Uint8Array(CHUNK).fill(0x61);
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled >= 200 * MiB) return controller.close();
        state.pulled += CHUNK;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request(url, { method, headers, body, duplex: "half" } as RequestInit);
  return { request, state };
}

const params = { params: Promise.resolve({}) };

// Every app/api route that accepts a body, with the cap it declares (GET-only routes declare 0).
const routes: { name: string; handler: Handler; method: string; path: string; cap: number; headers?: () => Record<string, string> }[] = [
  { name: "next-auth credentials callback", handler: nextAuthRoute.POST, method: "POST", path: "/api/auth/callback/credentials", cap: 8 * KiB },
  { name: "POST /api/auth/token", handler: tokenRoute.POST, method: "POST", path: "/api/auth/token", cap: 8 * KiB },
  { name: "POST /api/bank/exchange (unauthenticated)", handler: exchangeRoute.POST, method: "POST", path: "/api/bank/exchange", cap: 4 * KiB },
  {
    name: "POST /api/bank/link-token (signed in)",
    handler: linkTokenRoute.POST,
    method: "POST",
    path: "/api/bank/link-token",
    cap: 4 * KiB,
    headers: () => ({ cookie, origin: "http://localhost:3000" }),
  },
  { name: "POST /api/inngest", handler: inngestRoute.POST, method: "POST", path: "/api/inngest", cap: 4 * MiB },
  { name: "PUT /api/inngest", handler: inngestRoute.PUT, method: "PUT", path: "/api/inngest", cap: 4 * MiB },
  { name: "POST /api/webhooks/bank", handler: bankWebhookRoute.POST, method: "POST", path: "/api/webhooks/bank", cap: 64 * KiB },
  { name: "POST /api/webhooks/email", handler: emailWebhookRoute.POST, method: "POST", path: "/api/webhooks/email", cap: 5 * MiB },
  { name: "POST /api/webhooks/identity", handler: identityWebhookRoute.POST, method: "POST", path: "/api/webhooks/identity", cap: 1 * MiB },
  { name: "POST /api/webhooks/payments", handler: paymentsWebhookRoute.POST, method: "POST", path: "/api/webhooks/payments", cap: 1 * MiB },
  { name: "POST /api/webhooks/sms", handler: smsWebhookRoute.POST, method: "POST", path: "/api/webhooks/sms", cap: 64 * KiB },
  {
    name: "POST /api/v1 (core-api's streaming body cap)",
    handler: v1Route.POST,
    method: "POST",
    path: "/api/v1/signing/manager/signings",
    cap: 1 * MiB,
    headers: () => ({ authorization: `Bearer ${token}`, "content-type": "application/json" }),
  },
];

describe("body caps on every app/api route", () => {
  it.each(routes)("$name refuses an endless streamed body with 413 after reading at most its cap", async (route) => {
    const { request, state } = endlessRequest(`http://localhost:3000${route.path}`, route.method, route.headers?.());
    // The body never ends: answering at all means the route stopped reading; `pulled` says where.
    const response = await inNextRequestScope(request, async () => route.handler(request, params));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/exceeds/) });
    expect(state.pulled).toBeLessThanOrEqual(route.cap + 2 * CHUNK);
  });

  it("refuses a declared Content-Length over the cap without reading a byte", async () => {
    for (const route of routes.filter((r) => !r.path.startsWith("/api/v1"))) {
      const { request, state } = endlessRequest(`http://localhost:3000${route.path}`, route.method, {
        ...route.headers?.(),
        "content-length": String(route.cap + 1),
      });
      const response = await inNextRequestScope(request, async () => route.handler(request, params));
      expect(response.status, route.name).toBe(413);
      expect(state.pulled, route.name).toBe(0);
    }
  });

  it("keeps memory flat while ten 200 MB senders are refused", async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 10; i++) {
      for (const route of routes) {
        const { request } = endlessRequest(`http://localhost:3000${route.path}`, route.method, route.headers?.());
        expect((await inNextRequestScope(request, async () => route.handler(request, params))).status).toBe(413);
      }
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(128 * MiB);
  });

  it("still serves next-auth's own endpoints through the wrapper", async () => {
    const request = new Request("http://localhost:3000/api/auth/csrf");
    const response = await inNextRequestScope(request, async () => nextAuthRoute.GET(request, { params: Promise.resolve({ nextauth: ["csrf"] }) }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});

describe("one bad-JSON message", () => {
  it("answers app/api routes and /v1 with the same 400 text", async () => {
    const request = new Request("http://localhost:3000/api/bank/exchange", {
      method: "POST",
      headers: { cookie, origin: "http://localhost:3000", "content-type": "application/json" },
      body: "{",
    });
    const response = await inNextRequestScope(request, async () => exchangeRoute.POST(request, params));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Request body is not valid JSON." });

    const token400 = await tokenRoute.POST(new Request("http://localhost:3000/api/auth/token", { method: "POST", body: "{nope" }));
    expect(await token400.json()).toEqual({ error: "Request body is not valid JSON." });

    const v1 = await callApi("/v1/signing/manager/signings", { token, body: "{", headers: { "content-type": "application/json" } });
    expect(v1.body).toEqual({ error: "Request body is not valid JSON." });
  });
});

describe("checks before the body", () => {
  it("refuses the inbound email webhook's wrong token with 401 without reading the body", async () => {
    setEnvForTests({ EMAIL_WEBHOOK_TOKEN: "right-token" });
    const { request, state } = endlessRequest("http://localhost:3000/api/webhooks/email?token=wrong", "POST");
    const response = await emailWebhookRoute.POST(request);
    expect(response.status).toBe(401);
    expect(state.pulled).toBe(0);
  });
});
