import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Principal } from "@/lib/auth/principal";
import { assertAnotherOrgAdmin } from "./assert-another-org-admin";
import { getOrganizationMembershipOrThrow } from "./get-organization-membership-or-throw";
import { serializeMembership } from "./serialize-membership";

/** Removes a role assignment (the user row stays); never the organization's last org_admin (409). */
export async function removeMembership(
  db: Db,
  options: { principal: Principal; membershipId: string; ipAddress?: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const membership = await getOrganizationMembershipOrThrow(tx, { ...options, forbidden: "You do not have permission to remove members." });
    await assertAnotherOrgAdmin(tx, membership);
    await tx.delete(memberships).where(eq(memberships.id, membership.id));
    await recordAuditEntry(tx, {
      organizationId: membership.organizationId,
      actorUserId: options.principal.user.id,
      action: "membership.removed",
      entityType: "membership",
      entityId: membership.id,
      ipAddress: options.ipAddress,
      before: serializeMembership(membership),
    });
  });
}
