// /api/auth/* – next-auth's own endpoints (csrf, credentials callback, session, sign-out).
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth";

export const dynamic = "force-dynamic";

const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
