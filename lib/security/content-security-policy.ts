import { parsePublishableKey } from "@clerk/shared/keys";

const PLAID_LINK = "https://cdn.plaid.com";

/**
 * The one place where a route may load third-party code. Each entry widens `script-src` and
 * `frame-src` for the paths it matches and nowhere else. The bank step (Plaid Link) is the only one;
 * when that page lands, its path must match `pattern` (adjust the pattern here, not the policy).
 * Note: with `'strict-dynamic'`, CSP 3 browsers ignore host sources in `script-src`; Plaid's script
 * is inserted by react-plaid-link (itself loaded with the nonce), so it is trusted through
 * strict-dynamic. The host entry serves CSP 2 browsers, and `frame-src` is what lets Link's iframe open.
 */
export const THIRD_PARTY_ROUTES: readonly { pattern: RegExp; scriptSrc: string[]; frameSrc: string[] }[] = [
  { pattern: /^\/signings\/[^/]+\/bank(?:\/|$)/, scriptSrc: [PLAID_LINK], frameSrc: [PLAID_LINK] },
];

export type ContentSecurityPolicyOptions = {
  nonce: string;
  pathname: string;
  /** `'unsafe-eval'` is allowed only outside production (React's dev tooling needs it). */
  production: boolean;
  /** NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY when the browser signs in with Clerk. */
  clerkPublishableKey?: string;
};

/**
 * The Content-Security-Policy of an HTML response. Scripts run only with this request's nonce (Next
 * reads it from the same header on the request and stamps its own scripts); styles may be inline
 * because Clerk's components and React's `style` attributes need it.
 *
 * With Clerk, its components load clerk-js from the instance's Frontend API (the host encoded in the
 * publishable key), talk to it with fetch, show avatars from img.clerk.com and may open Cloudflare's
 * bot-protection challenge in a frame (Clerk's documented CSP requirements).
 */
export function buildContentSecurityPolicy(options: ContentSecurityPolicyOptions): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${options.nonce}'`, "'strict-dynamic'", ...(options.production ? [] : ["'unsafe-eval'"])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "blob:", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
    "frame-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  const frontendApi = options.clerkPublishableKey ? parsePublishableKey(options.clerkPublishableKey)?.frontendApi : undefined;
  if (frontendApi) {
    const origin = `https://${frontendApi.replace(/\$$/, "")}`;
    directives["script-src"]!.push(origin);
    directives["connect-src"]!.push(origin);
    directives["img-src"]!.push("https://img.clerk.com");
    directives["frame-src"]!.push("https://challenges.cloudflare.com");
  }
  for (const route of THIRD_PARTY_ROUTES) {
    if (!route.pattern.test(options.pathname)) continue;
    directives["script-src"]!.push(...route.scriptSrc);
    directives["frame-src"]!.push(...route.frameSrc);
  }
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}
