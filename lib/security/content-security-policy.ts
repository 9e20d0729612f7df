import { parsePublishableKey } from "@clerk/shared/keys";

const PLAID_LINK = "https://cdn.plaid.com";

/** Plaid's API host per PLAID_ENV, which Link's script talks to from the page (Plaid's documented `connect-src`). */
const PLAID_API: Record<PlaidEnvironment, string> = { sandbox: "https://sandbox.plaid.com", production: "https://production.plaid.com" };

export type PlaidEnvironment = "sandbox" | "production";

type ThirdPartyRoute = {
  pattern: RegExp;
  scriptSrc: string[];
  frameSrc: string[];
  connectSrc: (options: ContentSecurityPolicyOptions) => string[];
};

/**
 * The one place where a route may load third-party code. Each entry widens `script-src`,
 * `frame-src` and `connect-src` for the paths it matches and nowhere else. The bank step
 * (`app/(signer)/signings/[id]/bank`, Plaid Link) is the only one: Plaid documents `script-src` and
 * `frame-src` https://cdn.plaid.com and `connect-src` its API host (sandbox or production).
 * Note: with `'strict-dynamic'`, CSP 3 browsers ignore host sources in `script-src`; Plaid's script
 * is inserted by react-plaid-link (itself loaded with the nonce, and given the nonce for the script
 * element), so it is trusted through strict-dynamic. The host entry serves CSP 2 browsers, and
 * `frame-src` is what lets Link's iframe open.
 */
export const THIRD_PARTY_ROUTES: readonly ThirdPartyRoute[] = [
  {
    pattern: /^\/signings\/[^/]+\/bank\/?$/,
    scriptSrc: [PLAID_LINK],
    frameSrc: [PLAID_LINK],
    connectSrc: (options) => [PLAID_API[options.plaidEnvironment ?? "sandbox"]],
  },
];

export type ContentSecurityPolicyOptions = {
  nonce: string;
  pathname: string;
  /** `'unsafe-eval'` is allowed only outside production (React's dev tooling needs it). */
  production: boolean;
  /** NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY when the browser signs in with Clerk. */
  clerkPublishableKey?: string;
  /** PLAID_ENV: which Plaid API host the bank step may connect to (default sandbox, as in lib/env.ts). */
  plaidEnvironment?: PlaidEnvironment;
  /** The bucket origins direct uploads go to (`bucketUploadOrigins`); allowed on the pages that upload. */
  uploadOrigins?: string[];
  /**
   * The origins allowed to frame this response (an embedded signing page inside an allowed frame,
   * lib/embedded/frame-cookie.ts); absent: `frame-ancestors 'none'`, as on every other page.
   */
  frameAncestors?: string[];
};

/**
 * The pages whose forms PUT files straight to the bucket: the package form (new and edit), a
 * template's documents, a hybrid closing's scanbacks, a chattel document's files, the logo, a
 * signer's attachments (the package page and its done page) and a settlement agent's scans.
 */
const UPLOAD_PAGE = /^\/(signings\/(new|[^/]+|[^/]+\/edit|[^/]+\/closing|[^/]+\/done)|templates\/[^/]+|documents\/[^/]+|workspace\/settings|agent\/closing\/[^/]+)\/?$/;

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
    "frame-ancestors": options.frameAncestors?.length ? [...options.frameAncestors] : ["'none'"],
  };
  const frontendApi = options.clerkPublishableKey ? parsePublishableKey(options.clerkPublishableKey)?.frontendApi : undefined;
  if (frontendApi) {
    const origin = `https://${frontendApi.replace(/\$$/, "")}`;
    directives["script-src"]!.push(origin);
    directives["connect-src"]!.push(origin);
    directives["img-src"]!.push("https://img.clerk.com");
    directives["frame-src"]!.push("https://challenges.cloudflare.com");
  }
  if (options.uploadOrigins?.length && UPLOAD_PAGE.test(options.pathname)) directives["connect-src"]!.push(...options.uploadOrigins);
  for (const route of THIRD_PARTY_ROUTES) {
    if (!route.pattern.test(options.pathname)) continue;
    directives["script-src"]!.push(...route.scriptSrc);
    directives["frame-src"]!.push(...route.frameSrc);
    directives["connect-src"]!.push(...route.connectSrc(options));
  }
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}
