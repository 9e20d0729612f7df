import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, users, type Membership } from "@/db/schema";
import { Conflict } from "@/lib/errors";

/**
 * 409 when `membership` is the organization's last organization-wide org_admin held by an active
 * user: an organization must always keep someone who can manage its members.
 */
export async function assertAnotherOrgAdmin(db: Db, membership: Membership): Promise<void> {
  if (membership.role !== "org_admin" || membership.companyId !== null) return;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, membership.organizationId!),
        eq(memberships.role, "org_admin"),
        isNull(memberships.companyId),
        eq(users.isActive, true),
        ne(memberships.id, membership.id),
      ),
    );
  if ((row?.n ?? 0) === 0) throw Conflict("This is the organization's last org_admin; make someone else org_admin first.");
}
