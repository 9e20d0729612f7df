import { getServerSession } from "next-auth";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { isClerkWebConfigured } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { authOptions } from "./next-auth";
import { getLocalSessionUserId } from "./get-local-session-user-id";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { provisionClerkUser } from "./provision-clerk-user";
import { recordClerkSignIn } from "./record-clerk-sign-in";

export type GetSessionPrincipalOptions = {
  /**
   * Read the local session cookie from this request instead of through `next/headers`, so a route
   * handler also runs (and is tested) as a plain `Request → Response` function. Clerk sessions are
   * always read with `auth()`, which needs proxy.ts's `clerkMiddleware` in front.
   */
  request?: Request;
};

/**
 * The principal behind the browser session, or null when there is none. The one place that knows
 * which identity provider the browser uses (`isClerkWebConfigured`):
 * - Clerk: `auth()` from `@clerk/nextjs`. A Clerk user unknown here (signed in before the identity
 *   webhook arrived) is provisioned on this first request, the way the webhook would; the first
 *   request of each Clerk session counts as the sign-in (pending invitations accepted, as with a password).
 * - local: next-auth's session cookie.
 * Accounts only: a link holder's session (a signer's or an agent's emailed link) is resolved, with
 * this as its fallback, by `requestPrincipal` (lib/next/request-principal.ts).
 * Roles and the active flag are read from the database on every request, so a deactivated user or a
 * removed role takes effect at once rather than when the cookie expires.
 */
export async function getSessionPrincipal(db: Db, options: GetSessionPrincipalOptions = {}): Promise<Principal | null> {
  if (isClerkWebConfigured()) return getClerkSessionPrincipal(db);
  const userId = options.request ? await getLocalSessionUserId(options.request) : (await getServerSession(authOptions))?.user?.id;
  if (!userId || !isUuid(userId)) return null;
  const [user] = await db
    .select({ authSubject: users.authSubject, isActive: users.isActive })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user?.authSubject || !user.isActive) return null;
  return resolveOrNull(db, user.authSubject);
}

async function getClerkSessionPrincipal(db: Db): Promise<Principal | null> {
  const { auth } = await import("@clerk/nextjs/server");
  const { userId, sessionId, sessionClaims } = await auth();
  if (!userId) return null;
  let principal = await resolveOrNull(db, userId);
  if (!principal) {
    if (!(await provisionClerkUser(db, { userId, claims: (sessionClaims ?? {}) as Record<string, unknown> }))) return null;
    principal = await resolveOrNull(db, userId);
  }
  if (principal && sessionId) await recordClerkSignIn(db, { userId: principal.user.id, sessionId });
  return principal;
}

async function resolveOrNull(db: Db, subject: string): Promise<Principal | null> {
  try {
    return await resolvePrincipal(db, subject);
  } catch (error) {
    if (error instanceof AppError && error.status === 401) return null;
    throw error;
  }
}
