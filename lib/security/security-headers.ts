import { buildContentSecurityPolicy, type ContentSecurityPolicyOptions } from "./content-security-policy";

export type SecurityHeadersOptions = ContentSecurityPolicyOptions & { appUrl: string };

/**
 * The headers every HTML response carries (set in proxy.ts). HSTS only when the app is served over
 * https: sent over http it would be ignored, and on localhost it would pin the browser to https.
 */
export function buildSecurityHeaders(options: SecurityHeadersOptions): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": buildContentSecurityPolicy(options),
    // An access link's token is in its address (`/access/<token>`): no request from that page, not
    // even to our own origin, carries it in a Referer.
    "Referrer-Policy": isAccessLinkPath(options.pathname) ? "no-referrer" : "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    // Inside an embedded signing frame the CSP's frame-ancestors names the allowed origins; X-Frame-Options cannot.
    ...(options.frameAncestors?.length ? {} : { "X-Frame-Options": "DENY" }),
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  };
  if (new URL(options.appUrl).protocol === "https:") {
    headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains";
  }
  return headers;
}

/** The pages whose address carries a signer's access token, an embedded or in-person signing token or a settlement agent's link token. */
export function isAccessLinkPath(pathname: string | undefined): boolean {
  return (
    pathname !== undefined &&
    (pathname.startsWith("/access/") ||
      pathname.startsWith("/embed/") ||
      pathname.startsWith("/in-person/") ||
      (pathname.startsWith("/agent/") && !pathname.startsWith("/agent/closing/")))
  );
}
