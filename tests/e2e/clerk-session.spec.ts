import { test as base, expect } from "@playwright/test";
import { clerkKeys, clerkToken, rsaKeyPair } from "@/tests/helpers/clerk";
import { startNextServer, type NextServer } from "./support/next-server";

/**
 * Clerk in the browser, through a second `next start` of the same build with Clerk configured
 * (`support/next-server.ts`, a worker fixture here): proxy.ts runs Clerk's own `clerkMiddleware`,
 * pages and `/api/bank/status` read the session with `auth()`. Networkless: the `__session` cookie is
 * signed with the private half of the test CLERK_JWT_KEY, and the Frontend API host in the
 * publishable key (clerk.example.test) does not exist. A production (`pk_live_`) key is used: a
 * development instance would also need Clerk's dev-browser cookie (`__clerk_db_jwt`).
 */
const FRONTEND_API = "clerk.example.test";
const PUBLISHABLE_KEY = `pk_live_${Buffer.from(`${FRONTEND_API}$`).toString("base64")}`;
const PAGE = "/settings/api-keys";

const test = base.extend<object, { clerkServer: NextServer }>({
  clerkServer: [
    async ({}, provide) => {
      const server = await startNextServer(() => ({
        CLERK_SECRET_KEY: "sk_live_e2e_not_a_real_key",
        NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
        CLERK_JWT_KEY: clerkKeys.publicPem,
        CLERK_API_URL: "http://127.0.0.1:9", // nothing listens: any Backend API call would fail the test
        PLAID_CLIENT_ID: "e2e-client",
        PLAID_SECRET: "e2e-secret",
        PLAID_BASE_URL: "http://127.0.0.1:9",
      }));
      await provide(server);
      await server.stop();
    },
    { scope: "worker", timeout: 120_000 },
  ],
});

type CookieOptions = Parameters<typeof clerkToken>[0] & { navigation?: boolean };

/** A request carrying Clerk's two cookies: `__session` (the token) and `__client_uat` (not after its iat). */
async function get(server: NextServer, path: string, options: CookieOptions = {}): Promise<Response> {
  const now = Math.floor(Date.now() / 1000);
  const iat = options.iat ?? now - 5;
  const { navigation: _navigation, ...tokenOptions } = options;
  const token = await clerkToken({ azp: server.baseUrl, ...tokenOptions, iat });
  const headers: Record<string, string> = { cookie: `__session=${token}; __client_uat=${iat}` };
  if (options.navigation) Object.assign(headers, { accept: "text/html", "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" });
  return fetch(`${server.baseUrl}${path}`, { headers, redirect: "manual" });
}

function expectSignInRedirect(server: NextServer, response: Response): void {
  expect(response.status).toBe(307);
  const location = new URL(response.headers.get("location")!, server.baseUrl);
  expect(location.origin).toBe(server.baseUrl);
  expect(location.pathname).toBe("/sign-in");
  expect(location.searchParams.get("callbackUrl")).toBe(PAGE);
}

async function expect401Json(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  expect(await response.json()).toEqual({ error: "Sign in to link a bank account." });
}

// Requests with hand-made cookies, no layout: the desktop project runs them (one extra server, not two).
// Serial: the first test creates the Clerk user the others use.
test.describe("a Clerk session cookie", { tag: "@desktop" }, () => {
  test.describe.configure({ mode: "serial" });
  const newUser = {
    sub: "user_2e2eFirst",
    claims: { email: "first.clerk@example.test", email_verified: true, first_name: "First", last_name: "Clerk" },
  };

  test("signs in a page, creating the Clerk user on first request (before any identity webhook)", async ({ clerkServer }) => {
    const response = await get(clerkServer, PAGE, { ...newUser, navigation: true });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("API keys");
    expect(html).toContain("First Clerk");
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain(`https://${FRONTEND_API}`);
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  });

  test("is accepted by /api/bank/status", async ({ clerkServer }) => {
    const response = await get(clerkServer, "/api/bank/status", { sub: newUser.sub });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ connected: false, items: [] });
  });

  test("expired: the page sends the visitor to sign in; /api/bank/status answers 401 JSON", async ({ clerkServer }) => {
    const now = Math.floor(Date.now() / 1000);
    const expired = { sub: newUser.sub, iat: now - 120, nbf: now - 120, exp: now - 60 };
    expectSignInRedirect(clerkServer, await get(clerkServer, PAGE, expired));
    await expect401Json(await get(clerkServer, "/api/bank/status", expired));
  });

  test("expired, on a browser navigation: Clerk's handshake with its Frontend API, never the page", async ({ clerkServer }) => {
    const now = Math.floor(Date.now() / 1000);
    const response = await get(clerkServer, PAGE, { sub: newUser.sub, iat: now - 120, nbf: now - 120, exp: now - 60, navigation: true });
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location")!);
    expect(location.origin).toBe(`https://${FRONTEND_API}`);
    expect(location.pathname).toBe("/v1/client/handshake");
  });

  test("signed with another key: refused on the page (sign-in) and on /api/bank/status (401)", async ({ clerkServer }) => {
    const stranger = rsaKeyPair();
    const options = { sub: newUser.sub, privatePem: stranger.privatePem };
    expectSignInRedirect(clerkServer, await get(clerkServer, PAGE, { ...options, navigation: true }));
    await expect401Json(await get(clerkServer, "/api/bank/status", options));
  });

  test("made for another site (azp): refused on the page (sign-in) and on /api/bank/status (401)", async ({ clerkServer }) => {
    const options = { sub: newUser.sub, azp: "https://evil.example.test" };
    expectSignInRedirect(clerkServer, await get(clerkServer, PAGE, { ...options, navigation: true }));
    await expect401Json(await get(clerkServer, "/api/bank/status", options));
  });

  test("shows Clerk's sign-in on /sign-in instead of the local form", async ({ clerkServer }) => {
    const response = await fetch(`${clerkServer.baseUrl}/sign-in`, { redirect: "manual" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toContain('name="password"');
    expect(html).toContain(FRONTEND_API);
  });
});

// Browser checks of the lazily loaded provider (app/_components/clerk-browser-provider.tsx). Nothing
// leaves the machine: requests to the Frontend API are aborted, so clerk-js itself never loads.
test.describe("Clerk's provider in the browser", { tag: "@desktop" }, () => {
  test("with Clerk configured: a signed-in page hydrates under the provider, and clerk-js is requested with the page's nonce", async ({ clerkServer, browser }) => {
    const now = Math.floor(Date.now() / 1000);
    const token = await clerkToken({ azp: clerkServer.baseUrl, sub: "user_2e2eBrowser", iat: now - 5, exp: now + 300, claims: { email: "browser.clerk@example.test", email_verified: true, first_name: "Browser", last_name: "Clerk" } });
    const context = await browser.newContext();
    try {
      await context.addCookies([
        { name: "__session", value: token, url: clerkServer.baseUrl },
        { name: "__client_uat", value: String(now - 5), url: clerkServer.baseUrl },
      ]);
      const clerkJsRequests: string[] = [];
      await context.route(`https://${FRONTEND_API}/**`, (route) => {
        clerkJsRequests.push(route.request().url());
        return route.abort();
      });
      const page = await context.newPage();
      const response = await page.goto(`${clerkServer.baseUrl}${PAGE}`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();

      // The provider sits above every page's content: React reaching <main> means its chunk loaded and rendered.
      await expect
        .poll(() => page.evaluate(() => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber"))), { timeout: 15_000 })
        .toBe(true);
      // The server-rendered tag carries the nonce the CSP allows (the browser hides the attribute once parsed).
      const cspNonce = /'nonce-([^']+)'/.exec(response!.headers()["content-security-policy"] ?? "")?.[1];
      expect(cspNonce).toBeTruthy();
      const tag = /<script[^>]*\ssrc="https:\/\/clerk\.example\.test\/[^"]*clerk\.browser\.js"[^>]*>/.exec(await response!.text())?.[0];
      expect(tag).toContain(`nonce="${cspNonce}"`);
      await expect.poll(() => clerkJsRequests.some((url) => url.includes("clerk.browser.js"))).toBe(true);
    } finally {
      await context.close();
    }
  });

  test("without Clerk: no first-load script of a page carries Clerk's client code", async ({ request }) => {
    // Signed out, "/" leads to the sign-in page: the root layout's and the sign-in page's scripts.
    const response = await request.get("/sign-in");
    expect(response.status()).toBe(200);
    const html = await response.text();
    const sources = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    expect(sources.length).toBeGreaterThan(3);
    for (const src of sources) {
      const script = await request.get(src);
      expect(script.status()).toBe(200);
      expect(await script.text(), `${src} should not contain Clerk's code`).not.toContain("@clerk/nextjs");
    }
  });
});
