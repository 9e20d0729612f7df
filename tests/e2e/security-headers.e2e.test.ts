import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { ApiKeysPage } from "./pages/api-keys-page";
import { SignInPage } from "./pages/sign-in-page";
import { SignOutPage } from "./pages/sign-out-page";
import { baseUrl, launchBrowser, newContext } from "./support/browser";

/** Security headers (issue 9 D1) and server actions without a trustworthy Origin (issue 14.2), local provider. */

function nonceOf(csp: string): string {
  const match = /script-src 'self' 'nonce-([^']+)' 'strict-dynamic'/.exec(csp);
  expect(match, csp).not.toBeNull();
  return match![1]!;
}

describe("security headers on HTML responses", () => {
  it("carry a CSP whose fresh nonce is on every script of the page", async () => {
    const first = await fetch(`${baseUrl()}/sign-in`);
    expect(first.status).toBe(200);
    const csp = first.headers.get("content-security-policy")!;
    const nonce = nonceOf(csp);
    for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toContain("plaid");
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

    const second = await fetch(`${baseUrl()}/sign-in`);
    expect(nonceOf(second.headers.get("content-security-policy")!)).not.toBe(nonce);
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("permissions-policy")).toContain("camera=()");
    // APP_URL is http here: no HSTS (tests/unit/security-headers.test.ts covers https).
    expect(first.headers.get("strict-transport-security")).toBeNull();
  });

  it("are on a redirect to sign-in too", async () => {
    const response = await fetch(`${baseUrl()}/settings/api-keys`, { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("server actions without a trustworthy Origin", () => {
  const post = (origin: string | undefined, extra: Record<string, string> = {}) =>
    fetch(`${baseUrl()}/settings/api-keys`, {
      method: "POST",
      headers: { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8", ...(origin ? { origin } : {}), ...extra },
      body: "[]",
      redirect: "manual",
    });

  it.each([
    ["Origin: null", "null"],
    ["no Origin", undefined],
    ["another site's Origin", "https://evil.example.test"],
  ])("answer 403 JSON with %s", async (_label, origin) => {
    const response = await post(origin);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Cross-site request refused." });
  });

  it("answer 403 for a plain form POST to a page without Origin", async () => {
    const response = await fetch(`${baseUrl()}/sign-out`, { method: "POST", body: new URLSearchParams({ a: "b" }), redirect: "manual" });
    expect(response.status).toBe(403);
  });
});

describe("real forms in a browser", () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const violations: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await newContext(browser);
    page = await context.newPage();
    violations.length = 0;
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
  });
  afterEach(async () => {
    await context?.close();
  });

  it("create an API key through the server action and sign out (the browser sends Origin), with no CSP violation", async () => {
    await page.goto("/settings/api-keys");
    await new SignInPage(page).signIn("signer@demo.local", DEMO_PASSWORD, "/settings/api-keys");
    const apiKeys = new ApiKeysPage(page);
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    expect(await apiKeys.create("CSP check")).toMatch(/^csk_/);
    await page.goto("/sign-out");
    await new SignOutPage(page).confirm();
    expect(violations).toEqual([]);
  });
});
