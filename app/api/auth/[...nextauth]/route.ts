// /api/auth/* – next-auth's own endpoints (csrf, credentials callback, session, sign-out).
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/next-auth";
import { refuseThrottledCredentialsCallback } from "@/lib/auth/refuse-throttled-credentials-callback";
import { prepareDatabase } from "@/lib/boot";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

const nextAuth = NextAuth(authOptions) as (request: NextRequest, context: unknown) => Promise<Response>;

/**
 * next-auth reads the whole body (`req.formData()`/`req.text()`) before anything else; the wrapper
 * reads it first under an 8 KiB cap (a credentials form with its CSRF token is under 1 KiB) and hands
 * next-auth the bytes it already holds. A locked-out account or client gets 429 before next-auth runs.
 */
const handler = routeHandler({ maxBodyBytes: 8 * 1024 }, async ({ request, rawBody, params }) => {
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const replay = new NextRequest(request.url, {
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
  return nextAuth(replay, params);
});

export { handler as GET, handler as POST };
