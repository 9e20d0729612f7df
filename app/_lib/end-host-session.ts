import { cookies } from "next/headers";
import { isClerkWebConfigured } from "@/lib/env";

/**
 * Signs the person at this browser out of their own account (the host of an in-person signing hands
 * the device over): with Clerk, their Clerk session is revoked; with the local sign-in, next-auth's
 * session cookie is removed from this browser. Their next page needs their own sign-in again.
 */
export async function endHostSession(): Promise<void> {
  if (isClerkWebConfigured()) {
    const { auth, clerkClient } = await import("@clerk/nextjs/server");
    const { sessionId } = await auth();
    if (sessionId) await (await clerkClient()).sessions.revokeSession(sessionId);
    return;
  }
  const jar = await cookies();
  for (const cookie of jar.getAll()) {
    if (/^(__Secure-)?next-auth\.session-token(\.\d+)?$/.test(cookie.name)) jar.delete(cookie.name);
  }
}
