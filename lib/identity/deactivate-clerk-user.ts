import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";

export type DeactivateClerkUserOptions = { clerkUserId: string };

/**
 * Applies a Clerk `user.deleted`: the user can no longer sign in (principal resolution skips
 * inactive users), but the row stays, because signatures, audit entries and comments reference it.
 * Repeating it keeps the first `deactivated_at`. Returns null when no user has that Clerk id.
 */
export async function deactivateClerkUser(db: Db, options: DeactivateClerkUserOptions): Promise<{ userId: string } | null> {
  const [row] = await db
    .update(users)
    .set({ isActive: false, deactivatedAt: sql`coalesce(${users.deactivatedAt}, now())` })
    .where(eq(users.authSubject, options.clerkUserId))
    .returning({ userId: users.id });
  return row ?? null;
}
