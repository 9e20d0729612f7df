import { eq } from "drizzle-orm";
import { openDb } from "@/db/client";
import { authThrottles } from "@/db/schema";
import { sendRaw } from "@/tests/helpers/raw-http";
import { e2eDatabaseUrl, expect, test } from "./support/fixtures";

/**
 * Hostile clients against `next start` (the suite's web server, no proxy in front): bodies behind
 * proxy.ts, odd input to next-auth's routes, and password spraying. Requests only, no page.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

function target(baseURL: string | undefined): { host: string; port: number } {
  const url = new URL(baseURL!);
  return { host: url.hostname, port: Number(url.port) };
}

// The routes the outside review found answering only after the whole body (all behind proxy.ts).
const CAPPED = [
  { path: "/api/auth/callback/credentials", cap: 8 * KiB },
  { path: "/api/auth/token", cap: 8 * KiB },
  { path: "/api/auth/signout", cap: 8 * KiB },
  { path: "/api/auth/_log", cap: 8 * KiB },
  { path: "/api/bank/exchange", cap: 4 * KiB },
  { path: "/api/bank/link-token", cap: 4 * KiB },
];

test.describe("request bodies behind proxy.ts", { tag: "@desktop" }, () => {
  // The web server as `npm start` runs it: server.mjs, the body caps before Next (tests/e2e/serve.ts).
  for (const route of CAPPED) {
    test(`${route.path}: a declared 200 MB body is refused at once and the connection closed`, async ({ baseURL }) => {
      const { host, port } = target(baseURL);
      const outcome = await sendRaw(
        { host, port },
        `POST ${route.path} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${200 * MiB}\r\n\r\n`,
        { chunked: false, limitBytes: 200 * MiB },
      );
      expect(outcome.statusLine).toBe("HTTP/1.1 413 Payload Too Large");
      expect(outcome.answeredAfterMs!).toBeLessThan(3_000);
      expect(outcome.closedAfterMs, "the server closes the connection after its 413").not.toBeNull();
      expect(outcome.closedAfterMs!).toBeLessThan(3_000);
      expect(outcome.sentBytes).toBeLessThan(32 * MiB);
    });

    test(`${route.path}: an endless chunked body is refused near its cap and the connection closed`, async ({ baseURL }) => {
      const { host, port } = target(baseURL);
      const outcome = await sendRaw(
        { host, port },
        `POST ${route.path} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        { chunked: true, limitBytes: 200 * MiB },
      );
      expect(outcome.statusLine).toBe("HTTP/1.1 413 Payload Too Large");
      expect(outcome.answeredAfterMs!).toBeLessThan(3_000);
      expect(outcome.closedAfterMs, "the server closes the connection after its 413").not.toBeNull();
      // Half-closed, then cut after a grace period: a reset right after the 413 (what happened when a
      // route stopped reading past its cap) reaches a client still writing before it reads the answer.
      expect(outcome.closedAfterMs!, "the connection is held for the grace period after the 413").toBeGreaterThan(500);
      expect(outcome.closedAfterMs!).toBeLessThan(3_000);
      // What the client wrote includes the kernel's socket buffers; Next's own buffering would take 32 MB or more.
      expect(outcome.sentBytes).toBeLessThan(32 * MiB);
    });
  }

  test("a small body still reaches its route on a kept-alive connection", async ({ request }) => {
    const response = await request.post("/api/auth/token", { data: { apiKey: "csk_not-a-key" } });
    // A malformed key is a 400, an unknown one 401: either way the route read the body.
    expect([400, 401]).toContain(response.status());
  });
});

test.describe("next-auth's routes with odd input", { tag: "@desktop" }, () => {
  async function csrf(request: import("@playwright/test").APIRequestContext): Promise<string> {
    const response = await request.get("/api/auth/csrf");
    expect(response.status()).toBe(200);
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  }

  /** 4xx, a same-site redirect, or (with `json=true`) a 200 whose `url` is the same-site redirect. */
  function expectSameSiteOr4xx(status: number, location: string | undefined, baseURL: string, jsonUrl?: string) {
    expect(status).toBeLessThan(500);
    if (status >= 300 && status < 400) expect(new URL(location!, baseURL).origin).toBe(new URL(baseURL).origin);
    else if (status < 300 && jsonUrl !== undefined) expect(new URL(jsonUrl, baseURL).origin).toBe(new URL(baseURL).origin);
    else expect(status).toBeGreaterThanOrEqual(400);
  }

  test("GET /api/auth/error with a NUL or a line break in `error` is a same-site redirect", async ({ request, baseURL }) => {
    for (const error of ["%00", "%0d%0aSet-Cookie:%20x=1", "CredentialsSignin"]) {
      const response = await request.get(`/api/auth/error?error=${error}`, { maxRedirects: 0 });
      expectSameSiteOr4xx(response.status(), response.headers()["location"], baseURL!);
      expect(response.headers()["set-cookie"] ?? "").not.toContain("x=1");
    }
  });

  for (const callbackUrl of ["\\/\\/evil.example", "/\n/evil.example", "https://evil.example/", "//evil.example"]) {
    test(`the credentials callback and sign-out with callbackUrl ${JSON.stringify(callbackUrl)} answer 4xx or a same-site redirect`, async ({ request, baseURL }) => {
      const csrfToken = await csrf(request);
      for (const path of ["/api/auth/callback/credentials", "/api/auth/signout"]) {
        for (const json of ["false", "true"]) {
          const response = await request.post(path, {
            form: { email: "nobody@odd.example", password: "wrong", csrfToken, callbackUrl, json },
            maxRedirects: 0,
          });
          const text = await response.text();
          let jsonUrl: string | undefined;
          try {
            jsonUrl = json === "true" ? ((JSON.parse(text) as { url?: string }).url ?? undefined) : undefined;
          } catch {
            jsonUrl = undefined;
          }
          expectSameSiteOr4xx(response.status(), response.headers()["location"], baseURL!, jsonUrl);
          expect(text).not.toContain("evil.example");
        }
      }
      // The same value as a query parameter and as next-auth's callback-url cookie.
      const query = await request.get(`/api/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`, { maxRedirects: 0 });
      expectSameSiteOr4xx(query.status(), query.headers()["location"], baseURL!);
      expect(query.headers()["location"] ?? "").not.toContain("evil.example");
    });
  }
});

test.describe("password spraying", { tag: "@desktop" }, () => {
  test("one client trying wrong passwords on many addresses without accounts gets 429 from the 51st failure on", async ({ request }) => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to set up the earlier failures");
    test.setTimeout(180_000);
    const { db, close } = await openDb({ url: e2eDatabaseUrl() }, { max: 1 });
    const key = "client:127.0.0.1";
    try {
      // The client's first 40 failures, as earlier attempts would have left them (each one past the
      // 10th is slowed by up to 3 s, so sending all of them would take minutes).
      const now = new Date();
      // Earlier tests of this file failed passwords from this address too: set the count, whatever it was.
      await db
        .insert(authThrottles)
        .values({ key, failures: 40, windowStartedAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: authThrottles.key, set: { failures: 40, windowStartedAt: now, lockedUntil: null, updatedAt: now } });
      const csrfResponse = await request.get("/api/auth/csrf");
      const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
      const statuses: number[] = [];
      for (let i = 41; i <= 60; i++) {
        const response = await request.post("/api/auth/callback/credentials", {
          // A forged X-Forwarded-For changes nothing: the socket address is the client.
          headers: { "x-forwarded-for": `198.51.100.${i}` },
          form: { email: `nobody-${i}@spray.example`, password: "not-the-password", csrfToken, json: "true" },
          maxRedirects: 0,
        });
        statuses.push(response.status());
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual(Array(10).fill(429));
    } finally {
      // Other specs sign in from this address.
      await db.delete(authThrottles).where(eq(authThrottles.key, key));
      await close();
    }
  });
});
