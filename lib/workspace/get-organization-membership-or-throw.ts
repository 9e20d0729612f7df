import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, organizations, users, type Membership, type User } from "@/db/schema";
import { canAccess, requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";

export type MembershipWithUser = Membership & { user: Pick<User, "id" | "email" | "name" | "lastSignInAt"> };

async function loadMembership(db: Db, membershipId: string): Promise<MembershipWithUser | undefined> {
  const [row] = await db
    .select({ membership: memberships, user: { id: users.id, email: users.email, name: users.name, lastSignInAt: users.lastSignInAt } })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.id, membershipId))
    .limit(1);
  return row ? { ...row.membership, user: row.user } : undefined;
}

/**
 * A membership of an organization the caller administers (memberships:write on the whole
 * organization), else 404. Locks the organization row and reads the membership again under the
 * lock: membership changes in one organization run one at a time, so two concurrent removals
 * cannot both pass the last-org-admin check, and a membership removed meanwhile is a 404.
 */
export async function getOrganizationMembershipOrThrow(
  db: Db,
  options: { principal: Principal; membershipId: string; forbidden: string },
): Promise<MembershipWithUser> {
  requireCapability(options.principal, "memberships:write", options.forbidden);
  const notFound = NotFound(`Membership ${options.membershipId} not found.`);
  const first = await loadMembership(db, options.membershipId);
  const organizationId = first?.organizationId;
  if (organizationId == null || !canAccess(options.principal, "memberships:write", { organizationId, companyId: null, locationId: null })) {
    throw notFound;
  }
  await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).for("update");
  const locked = await loadMembership(db, options.membershipId);
  if (!locked) throw notFound;
  return locked;
}
