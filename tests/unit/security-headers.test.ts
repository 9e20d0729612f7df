import { describe, expect, it } from "vitest";
import { isUntrustedMutation } from "@/lib/security/check-mutation-origin";
import { buildContentSecurityPolicy } from "@/lib/security/content-security-policy";
import { buildSecurityHeaders } from "@/lib/security/security-headers";

// pk_live_ + base64("clerk.sign.example.test$"), the shape of a real production publishable key.
const PUBLISHABLE_KEY = `pk_live_${Buffer.from("clerk.sign.example.test$").toString("base64")}`;

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

describe("buildContentSecurityPolicy", () => {
  const base = { nonce: "bm9uY2U=", pathname: "/", production: true };

  it("allows scripts only with the nonce, and locks down framing, plugins, base and forms", () => {
    const csp = directives(buildContentSecurityPolicy(base));
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-bm9uY2U='", "'strict-dynamic'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
  });

  it("allows 'unsafe-eval' only outside production", () => {
    expect(buildContentSecurityPolicy(base)).not.toContain("unsafe-eval");
    expect(directives(buildContentSecurityPolicy({ ...base, production: false })).get("script-src")).toContain("'unsafe-eval'");
  });

  it("allows Plaid Link on the bank step only", () => {
    const bank = directives(buildContentSecurityPolicy({ ...base, pathname: "/signings/sig_123/bank" }));
    expect(bank.get("script-src")).toContain("https://cdn.plaid.com");
    expect(bank.get("frame-src")).toContain("https://cdn.plaid.com");
    for (const pathname of ["/", "/signings/sig_123", "/signings/sig_123/banking", "/bank"]) {
      expect(buildContentSecurityPolicy({ ...base, pathname })).not.toContain("plaid");
    }
  });

  it("lets the bank step connect to the Plaid API host of PLAID_ENV, and no other page to either", () => {
    const pathname = "/signings/0195f3a0-0000-7000-8000-000000000001/bank";
    expect(directives(buildContentSecurityPolicy({ ...base, pathname })).get("connect-src")).toEqual(["'self'", "https://sandbox.plaid.com"]);
    const production = directives(buildContentSecurityPolicy({ ...base, pathname: `${pathname}/`, plaidEnvironment: "production" }));
    expect(production.get("connect-src")).toEqual(["'self'", "https://production.plaid.com"]);
    expect(production.get("script-src")).toEqual(["'self'", "'nonce-bm9uY2U='", "'strict-dynamic'", "https://cdn.plaid.com"]);
    expect(production.get("frame-src")).toEqual(["'self'", "https://cdn.plaid.com"]);
    for (const other of ["/signings/abc/bank/extra", "/signings/abc/done", "/api/bank/status", "/me/esignatures", "/signings/abc/documents/bank"]) {
      expect(buildContentSecurityPolicy({ ...base, pathname: other, plaidEnvironment: "production" })).not.toContain("plaid");
    }
  });

  it("allows Clerk's Frontend API (from the publishable key) when Clerk is configured, and nothing of Clerk otherwise", () => {
    const csp = directives(buildContentSecurityPolicy({ ...base, clerkPublishableKey: PUBLISHABLE_KEY }));
    expect(csp.get("script-src")).toContain("https://clerk.sign.example.test");
    expect(csp.get("connect-src")).toContain("https://clerk.sign.example.test");
    expect(csp.get("img-src")).toContain("https://img.clerk.com");
    expect(csp.get("frame-src")).toContain("https://challenges.cloudflare.com");
    expect(buildContentSecurityPolicy(base)).not.toContain("clerk");
  });
});

describe("buildSecurityHeaders", () => {
  const base = { nonce: "n", pathname: "/", production: true };

  it("sets the referrer, sniffing and permissions policies", () => {
    const headers = buildSecurityHeaders({ ...base, appUrl: "http://localhost:3000" });
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Permissions-Policy"]).toMatch(/camera=\(\)/);
    expect(headers["Content-Security-Policy"]).toContain("'nonce-n'");
  });

  it("sends HSTS only when APP_URL is https", () => {
    expect(buildSecurityHeaders({ ...base, appUrl: "http://localhost:3000" })["Strict-Transport-Security"]).toBeUndefined();
    expect(buildSecurityHeaders({ ...base, appUrl: "https://sign.example.test" })["Strict-Transport-Security"]).toMatch(/^max-age=\d+/);
  });
});

describe("isUntrustedMutation", () => {
  const appUrl = "https://sign.example.test";
  const check = (method: string, pathname: string, headers: Record<string, string>) =>
    isUntrustedMutation({ method, pathname, headers: new Headers(headers), url: `https://sign.example.test${pathname}`, appUrl });

  it("refuses a server action with Origin null, without Origin, or from another site", () => {
    expect(check("POST", "/settings/api-keys", { "next-action": "abc", origin: "null" })).toBe(true);
    expect(check("POST", "/settings/api-keys", { "next-action": "abc" })).toBe(true);
    expect(check("POST", "/settings/api-keys", { "next-action": "abc", origin: "https://evil.example.test" })).toBe(true);
  });

  it("refuses any other non-GET page request without a trustworthy Origin", () => {
    expect(check("POST", "/sign-in", {})).toBe(true);
    expect(check("PUT", "/", { origin: "null" })).toBe(true);
  });

  it("lets same-origin mutations, reads and /api or /v1 requests through", () => {
    expect(check("POST", "/settings/api-keys", { "next-action": "abc", origin: "https://sign.example.test" })).toBe(false);
    expect(check("GET", "/settings/api-keys", {})).toBe(false);
    expect(check("HEAD", "/", { origin: "null" })).toBe(false);
    expect(check("POST", "/api/auth/token", {})).toBe(false);
    expect(check("POST", "/v1/signing/manager/signings", {})).toBe(false);
  });

  it("treats a server action posted to an /api path like any other server action", () => {
    expect(check("POST", "/api/anything", { "next-action": "abc" })).toBe(true);
  });
});
