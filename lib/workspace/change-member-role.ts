import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { assertAnotherOrgAdmin } from "./assert-another-org-admin";
import { getOrganizationMembershipOrThrow } from "./get-organization-membership-or-throw";
import { sameScope } from "./same-scope";
import { serializeMembership, type MembershipJson } from "./serialize-membership";

export type MemberRole = "signer" | "manager" | "org_admin";

/** Changes the role of a membership in the caller's organization; never demotes the last org_admin (409). */
export async function changeMemberRole(
  db: Db,
  options: { principal: Principal; membershipId: string; role: MemberRole; ipAddress?: string | null },
): Promise<MembershipJson> {
  return db.transaction(async (tx) => {
    const before = await getOrganizationMembershipOrThrow(tx, { ...options, forbidden: "You do not have permission to change roles." });
    if (before.role === options.role) return serializeMembership(before);
    await assertAnotherOrgAdmin(tx, before);
    const [duplicate] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, before.userId), eq(memberships.role, options.role), sameScope(before)))
      .limit(1);
    if (duplicate) throw Conflict("The user already has this role at this scope.");
    const [updated] = await tx.update(memberships).set({ role: options.role }).where(eq(memberships.id, before.id)).returning();
    const after = serializeMembership({ ...updated!, user: before.user });
    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      actorUserId: options.principal.user.id,
      action: "membership.role_changed",
      entityType: "membership",
      entityId: before.id,
      ipAddress: options.ipAddress,
      before: serializeMembership(before),
      after,
    });
    return after;
  });
}
