import type { Request } from "@playwright/test";
import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { ApiKeysPage } from "./pages/api-keys-page";
import { SignInPage } from "./pages/sign-in-page";
import { SignOutPage } from "./pages/sign-out-page";
import { expect, test } from "./support/fixtures";

/**
 * Security headers (issue 9 D1) and server actions without a trustworthy Origin (issue 14.2), on the
 * suite's `next start` (local identity provider). The HTTP checks use Node's `fetch`, which sends no
 * Origin unless told to; they are about headers, not layout, so the desktop project runs them once.
 */

function nonceOf(csp: string): string {
  const match = /script-src 'self' 'nonce-([^']+)' 'strict-dynamic'/.exec(csp);
  expect(match, csp).not.toBeNull();
  return match![1]!;
}

test.describe("security headers on HTML responses", { tag: "@desktop" }, () => {
  test("carry a CSP whose fresh nonce is on every script of the page", async ({ baseURL }) => {
    const first = await fetch(`${baseURL}/sign-in`);
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

    const second = await fetch(`${baseURL}/sign-in`);
    expect(nonceOf(second.headers.get("content-security-policy")!)).not.toBe(nonce);
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("permissions-policy")).toContain("camera=()");
    // APP_URL is http here: no HSTS (tests/unit/security-headers.test.ts covers https).
    expect(first.headers.get("strict-transport-security")).toBeNull();
  });

  test("are on a redirect to sign-in too", async ({ baseURL }) => {
    const response = await fetch(`${baseURL}/settings/api-keys`, { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

test.describe("server actions without a trustworthy Origin", { tag: "@desktop" }, () => {
  const post = (baseURL: string | undefined, origin: string | undefined) =>
    fetch(`${baseURL}/settings/api-keys`, {
      method: "POST",
      headers: { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8", ...(origin ? { origin } : {}) },
      body: "[]",
      redirect: "manual",
    });

  for (const [label, origin] of [
    ["Origin: null", "null"],
    ["no Origin", undefined],
    ["another site's Origin", "https://evil.example.test"],
  ] as const) {
    test(`answer 403 JSON with ${label}`, async ({ baseURL }) => {
      const response = await post(baseURL, origin);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: "Cross-site request refused." });
    });
  }

  test("answer 403 for a plain form POST to a page without Origin", async ({ baseURL }) => {
    const response = await fetch(`${baseURL}/sign-out`, { method: "POST", body: new URLSearchParams({ a: "b" }), redirect: "manual" });
    expect(response.status).toBe(403);
  });
});

test.describe("real forms in a browser", () => {
  test("create an API key through the server action and sign out (the browser sends Origin), with no CSP violation", async ({ page }, testInfo) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    // The browser's own report of a blocked resource or script, whatever the console says.
    await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation(
          `${event.violatedDirective} blocked ${event.blockedURI || "inline"}`,
        );
      });
    });
    const posts: Request[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request);
    });

    await page.goto("/settings/api-keys");
    await new SignInPage(page).signIn("signer@demo.local", DEMO_PASSWORD, "/settings/api-keys");
    const apiKeys = new ApiKeysPage(page);
    await apiKeys.heading.waitFor();
    expect(await apiKeys.create(`CSP check (${testInfo.project.name})`)).toMatch(/^csk_/);
    await page.goto("/sign-out");
    await new SignOutPage(page).confirm();
    expect(violations).toEqual([]);
    // Sign-in, key creation and sign-out each posted with this origin.
    expect(posts.length).toBeGreaterThanOrEqual(3);
    // allHeaders(): the headers as sent, including the Origin the browser's network stack adds.
    for (const request of posts) expect((await request.allHeaders())["origin"], request.url()).toBe(new URL(page.url()).origin);
  });
});
