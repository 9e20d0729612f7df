import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships } from "@/db/schema";

/**
 * Marks a person's pending invitations as accepted (all of them, or one organization's): from then on
 * those organizations see the user's own name. Called when they sign in or accept an invitation link.
 */
export async function acceptMemberships(db: Db, options: { userId: string; organizationId?: number; now?: Date }): Promise<void> {
  const conditions: SQL[] = [eq(memberships.userId, options.userId), isNull(memberships.acceptedAt)];
  if (options.organizationId !== undefined) conditions.push(eq(memberships.organizationId, options.organizationId));
  await db.update(memberships).set({ acceptedAt: options.now ?? new Date() }).where(and(...conditions));
}
