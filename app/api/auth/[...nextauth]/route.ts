// /api/auth/* – next-auth's own endpoints (csrf, credentials callback, session, sign-out).
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/sign-in/next-auth";
import { refuseThrottledCredentialsCallback } from "@/lib/auth/refuse-throttled-credentials-callback";
import { safeReturnPath } from "@/lib/auth/safe-return-path";
import { prepareDatabase } from "@/lib/boot";
import { pointNextAuthAtAppUrl } from "@/lib/env";
import { log } from "@/lib/log";
import { AUTH_ROUTE_MAX_BODY_BYTES } from "@/lib/next/early-body-caps.mjs";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

const nextAuth = NextAuth(authOptions) as (request: NextRequest, context: unknown) => Promise<Response>;

/**
 * next-auth reads the whole body (`req.formData()`/`req.text()`) before anything else; the wrapper
 * reads it first under an 8 KiB cap (a credentials form with its CSRF token is under 1 KiB) and hands
 * next-auth the bytes it already holds. A locked-out account or client gets 429 before next-auth runs.
 * Odd input (an `error` code or a `callbackUrl` next-auth would choke on) gets a 4xx or a same-site
 * redirect, never a 500 (the `redirect` callback in lib/sign-in/next-auth.ts keeps callback URLs on site).
 */
const handler = routeHandler({ maxBodyBytes: AUTH_ROUTE_MAX_BODY_BYTES }, async ({ request, rawBody, params }) => {
  const url = new URL(request.url);
  // next-auth pastes `error` into its redirect to the error page unencoded: a NUL or a line break
  // makes an invalid Location header and a 500. Only a plain error code is passed on.
  if (url.pathname.endsWith("/api/auth/error")) return errorPageRedirect(url.searchParams.get("error"));
  // next-auth answers 500 ("server configuration") to a `callbackUrl` parameter or callback-url
  // cookie that `new URL()` cannot read: the parameter becomes a safe path, the cookie is cleared (400).
  const badCookie = unreadableCallbackCookie(request);
  if (badCookie) return clearCallbackCookie(badCookie);
  const callbackUrl = url.searchParams.get("callbackUrl");
  if (callbackUrl !== null && !readableCallbackUrl(callbackUrl)) url.searchParams.set("callbackUrl", safeReturnPath(callbackUrl));

  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const replay = new NextRequest(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? Buffer.from(rawBody) : undefined,
    signal: request.signal,
  });
  if (request.method === "POST") {
    const { db } = await prepareDatabase();
    const refused = await refuseThrottledCredentialsCallback(db, { request: replay });
    if (refused) return refused;
  }
  pointNextAuthAtAppUrl();
  try {
    return await nextAuth(replay, params);
  } catch (error) {
    // What next-auth cannot turn into a response is the request's fault (odd cookies, parameters or
    // headers it trips over), never a 500: the client is told, the details go to the log.
    log.warn("next-auth refused a request", { path: url.pathname, reason: error instanceof Error ? error.message : String(error) });
    return Response.json({ error: "Invalid sign-in request." }, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
});

const ERROR_CODE = /^[A-Za-z]{1,64}$/;

/** next-auth's error page is the sign-in page (`pages.error`): the same redirect, with a code that is safe in a URL. */
function errorPageRedirect(code: string | null): Response {
  const error = code !== null && ERROR_CODE.test(code) ? code : "Default";
  return new Response(null, { status: 302, headers: { Location: `/sign-in?error=${error}`, "Cache-Control": "no-store" } });
}

export { handler as GET, handler as POST };

const CALLBACK_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"];

/** What next-auth's own check accepts: an http(s) URL, or a path on the site. */
function readableCallbackUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, value.startsWith("/") ? "http://localhost" : undefined).protocol);
  } catch {
    return false;
  }
}

function unreadableCallbackCookie(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    const name = part.slice(0, eq < 0 ? undefined : eq).trim();
    if (eq < 0 || !CALLBACK_COOKIES.includes(name)) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return name;
    }
    if (!readableCallbackUrl(value)) return name;
  }
  return null;
}

function clearCallbackCookie(name: string): Response {
  const secure = name.startsWith("__Secure-") ? "; Secure" : "";
  return Response.json(
    { error: "Invalid sign-in request." },
    { status: 400, headers: { "Cache-Control": "no-store", "Set-Cookie": `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}` } },
  );
}