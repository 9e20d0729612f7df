import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as nextAuthRoute from "@/app/api/auth/[...nextauth]/route";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";

// next-auth's own routes through the real route handler: odd input gets a 4xx or a same-site
// redirect, never a 5xx, and never a redirect off the site.

const ORIGIN = "http://localhost:3000";
let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

async function call(method: "GET" | "POST", path: string, init: { body?: URLSearchParams; cookie?: string } = {}): Promise<Response> {
  const url = new URL(path, ORIGIN);
  const headers: Record<string, string> = {};
  if (init.body) headers["content-type"] = "application/x-www-form-urlencoded";
  if (init.cookie) headers.cookie = init.cookie;
  const request = new Request(url, { method, headers, body: init.body });
  const segments = url.pathname.replace(/^\/api\/auth\//, "").split("/");
  const handler = method === "POST" ? nextAuthRoute.POST : nextAuthRoute.GET;
  return inNextRequestScope(request, async () => handler(request, { params: Promise.resolve({ nextauth: segments }) }));
}

async function csrf(): Promise<{ csrfToken: string; cookie: string }> {
  const response = await call("GET", "/api/auth/csrf");
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { csrfToken, cookie: response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

/** 4xx, or a redirect (or next-auth's JSON `{ url }`) that stays on the site. */
async function expectSafe(response: Response): Promise<void> {
  expect(response.status).toBeLessThan(500);
  const location = response.headers.get("location");
  if (response.status >= 300 && response.status < 400) {
    expect(new URL(location!, ORIGIN).origin).toBe(ORIGIN);
  } else if (response.status === 200) {
    const body = (await response.json()) as { url?: string };
    if (body.url !== undefined) expect(new URL(body.url, ORIGIN).origin).toBe(ORIGIN);
  } else {
    expect(response.status).toBeGreaterThanOrEqual(400);
  }
  for (const cookie of response.headers.getSetCookie()) expect(decodeURIComponent(cookie)).not.toContain("evil.example");
}

const HOSTILE_CALLBACKS = ["\\/\\/evil.example", "/\n/evil.example", "/\r\n/evil.example", "https://evil.example/", "//evil.example", "/\u0000x"];

describe("next-auth's routes with odd input", () => {
  it.each(["\u0000", "\r\nSet-Cookie: x=1", "%00", "CredentialsSignin", ""])("GET /api/auth/error?error=%j is a same-site redirect", async (error) => {
    const response = await call("GET", `/api/auth/error?error=${encodeURIComponent(error)}`);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!, ORIGIN);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("error")).toBe(/^[A-Za-z]+$/.test(error) ? error : "Default");
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it.each(HOSTILE_CALLBACKS)("the credentials callback with callbackUrl %j answers 4xx or a same-site redirect", async (callbackUrl) => {
    const { csrfToken, cookie } = await csrf();
    for (const json of ["true", "false"]) {
      const body = new URLSearchParams({ email: "nobody@odd.example", password: "wrong", csrfToken, callbackUrl, json });
      await expectSafe(await call("POST", "/api/auth/callback/credentials", { body, cookie }));
    }
  });

  it.each(HOSTILE_CALLBACKS)("sign-out, sign-in and the callback-url cookie with %j stay on the site", async (callbackUrl) => {
    const { csrfToken, cookie } = await csrf();
    await expectSafe(await call("POST", "/api/auth/signout", { body: new URLSearchParams({ csrfToken, callbackUrl }), cookie }));
    await expectSafe(await call("GET", `/api/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`));
    await expectSafe(await call("GET", "/api/auth/session", { cookie: `next-auth.callback-url=${encodeURIComponent(callbackUrl)}` }));
  });

  it("a same-site callbackUrl is kept", async () => {
    const { csrfToken, cookie } = await csrf();
    const response = await call("POST", "/api/auth/signout", { body: new URLSearchParams({ csrfToken, callbackUrl: "/signings?status=sent", json: "true" }), cookie });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { url: string }).url).toBe(`${ORIGIN}/signings?status=sent`);
  });
});
