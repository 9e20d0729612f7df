// /api/auth/* – next-auth's own endpoints (csrf, credentials callback, session, sign-out).
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth";
import { refuseThrottledCredentialsCallback } from "@/lib/auth/refuse-throttled-credentials-callback";
import { prepareDatabase } from "@/lib/boot";

export const dynamic = "force-dynamic";

const handler = NextAuth(authOptions);

type RouteContext = { params: Promise<{ nextauth: string[] }> };

export async function POST(request: Request, context: RouteContext): Promise<Response> {
  const { db } = await prepareDatabase();
  return (await refuseThrottledCredentialsCallback(db, { request })) ?? handler(request, context);
}

export { handler as GET };
