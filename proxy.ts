import { clerkMiddleware } from "@clerk/nextjs/server";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { clerkJwtKey } from "@/lib/auth/clerk";
import { clerkAuthorizedParties, getEnv, isClerkWebConfigured } from "@/lib/env";
import { isUntrustedMutation } from "@/lib/security/check-mutation-origin";
import { buildSecurityHeaders } from "@/lib/security/security-headers";
import { refuseBadPageBody } from "@/lib/next/refuse-bad-page-body";
import { bucketUploadOrigins } from "@/lib/storage/bucket-upload-origins";
import { EMBED_ORIGINS_HEADER, frameAncestorsFor, frameCookieName, openFrameGrant } from "@/lib/embedded/frame-cookie";

/**
 * Next 16's proxy (formerly middleware), for pages, server actions and the cookie-authenticated
 * `/api` routes (see `config.matcher`):
 * 1. refuses state-changing page requests without a trustworthy Origin (403, issue 14.2);
 * 2. refuses a body over its path's cap (413) and a server action's malformed multipart body (400),
 *    which Next would otherwise answer with a 500 (lib/next/refuse-bad-page-body.ts);
 * 3. gives the request a fresh CSP nonce: the policy goes on the request too, where Next reads the
 *    nonce for its own scripts, and `x-nonce` lets the root layout hand it to Clerk's script;
 * 4. with Clerk configured, runs `clerkMiddleware`, which verifies the `__session` cookie (networkless
 *    with CLERK_JWT_KEY) and passes the result to `auth()` in server code;
 * 5. sets the security headers on the response (docs/security.md); inside an embedded signing frame
 *    (a valid frame cookie for the requested signer page, lib/embedded/frame-cookie.ts) the CSP's
 *    frame-ancestors lists the organization's allowed origins, which the page reads from `x-embed-origins`.
 */
export async function proxy(request: NextRequest, event: NextFetchEvent): Promise<Response> {
  const env = getEnv();
  const { pathname } = request.nextUrl;
  if (isUntrustedMutation({ method: request.method, pathname, headers: request.headers, url: request.url, appUrl: env.APP_URL })) {
    return withHeaders(NextResponse.json({ error: "Cross-site request refused." }, { status: 403 }), securityHeaders(pathname, nonce()));
  }

  const refused = await refuseBadPageBody(request, pathname);
  if (refused) return withHeaders(refused, securityHeaders(pathname, nonce()));

  const requestNonce = nonce();
  const grant = openFrameGrant(request.cookies.get(frameCookieName(new URL(env.APP_URL).protocol === "https:"))?.value);
  const frameAncestors = frameAncestorsFor(pathname, grant) ?? undefined;
  const headers = securityHeaders(pathname, requestNonce, frameAncestors);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", requestNonce);
  // Only the proxy says a page is framed: a client's own x-embed-origins never reaches a page.
  if (frameAncestors) requestHeaders.set(EMBED_ORIGINS_HEADER, frameAncestors.join(" "));
  else requestHeaders.delete(EMBED_ORIGINS_HEADER);
  requestHeaders.set("content-security-policy", headers["Content-Security-Policy"]!);
  const next = () => NextResponse.next({ request: { headers: requestHeaders } });

  if (!isClerkWebConfigured(env)) return withHeaders(next(), headers);
  const clerk = clerkMiddleware(() => next(), {
    publishableKey: env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY,
    jwtKey: env.CLERK_JWT_KEY ? clerkJwtKey(env.CLERK_JWT_KEY) : undefined,
    authorizedParties: clerkAuthorizedParties(env),
    signInUrl: "/sign-in",
    signUpUrl: "/sign-in?mode=sign-up",
  });
  const response = (await clerk(request, event)) ?? next();
  return withHeaders(resumeInsteadOfSelfRewrite(response, request.url), headers);
}

/**
 * clerkMiddleware turns "continue" into a rewrite to the request's own URL. Next builds that URL
 * with `localhost` as host, and when the server listens on another address (`next start -H
 * 127.0.0.1`, the usual setup behind a reverse proxy) it treats the rewrite as external and fails
 * every page with a 500 ("Failed to proxy … socket hang up"). A rewrite to the same URL is a plain
 * continue; the request headers Clerk added for `auth()` travel with either.
 */
function resumeInsteadOfSelfRewrite(response: Response, requestUrl: string): Response {
  const rewrite = response.headers.get("x-middleware-rewrite");
  if (rewrite === null || new URL(rewrite, requestUrl).href !== new URL(requestUrl).href) return response;
  response.headers.delete("x-middleware-rewrite");
  response.headers.set("x-middleware-next", "1");
  return response;
}

function nonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

function securityHeaders(pathname: string, requestNonce: string, frameAncestors?: string[]): Record<string, string> {
  const env = getEnv();
  return buildSecurityHeaders({
    nonce: requestNonce,
    pathname,
    production: env.NODE_ENV === "production",
    appUrl: env.APP_URL,
    clerkPublishableKey: isClerkWebConfigured(env) ? env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY : undefined,
    plaidEnvironment: env.PLAID_ENV,
    uploadOrigins: bucketUploadOrigins(env),
    frameAncestors,
  });
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Everything but static assets and the routes that neither render HTML nor read a browser session:
  // /v1 (Bearer tokens, also under /api/v1), probes, signed webhooks, Inngest and the JWKS.
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico|v1/|api/v1/|api/webhooks/|api/inngest|api/health|api/ready|api/auth/jwks|health|ready|\\.well-known/|branding/).*)"],
};
