import { getServerSession } from "next-auth";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { isUuid } from "@/lib/ids";
import { authOptions } from "./next-auth";
import { resolvePrincipal, type Principal } from "./principal";

/**
 * The principal behind the browser session, or null when there is none. The session JWT only
 * names the user; roles and the active flag are read from the database on every request, so a
 * deactivated user or a removed role takes effect at once rather than when the cookie expires.
 */
export async function getSessionPrincipal(db: Db): Promise<Principal | null> {
  const session = await getServerSession(authOptions);
  const userId = session?.user?.id;
  if (!userId || !isUuid(userId)) return null;
  const [user] = await db
    .select({ authSubject: users.authSubject, isActive: users.isActive })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user?.authSubject || !user.isActive) return null;
  try {
    return await resolvePrincipal(db, user.authSubject);
  } catch {
    return null;
  }
}
