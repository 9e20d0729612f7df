// /api/auth/* – next-auth's own endpoints (csrf, credentials callback, session, sign-out).
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/next-auth";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

const nextAuth = NextAuth(authOptions) as (request: NextRequest, context: unknown) => Promise<Response>;

/**
 * next-auth reads the whole body (`req.formData()`/`req.text()`) before anything else; the wrapper
 * reads it first under an 8 KiB cap (a credentials form with its CSRF token is under 1 KiB) and hands
 * next-auth the bytes it already holds.
 */
const handler = routeHandler({ maxBodyBytes: 8 * 1024 }, ({ request, rawBody, params }) => {
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const replay = new NextRequest(request.url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? Buffer.from(rawBody) : undefined,
    signal: request.signal,
  });
  return nextAuth(replay, params);
});

export { handler as GET, handler as POST };
