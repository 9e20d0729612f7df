import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, type Organization } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getOrganizationOrThrow } from "./get-organization-or-throw";
import { serializeOrganization } from "./serialize-organization";

const FORBIDDEN = "You do not have permission to change this organization.";

/** Renames an organization; needs an organization-wide org_admin role. */
export async function updateOrganization(
  db: Db,
  options: { principal: Principal; organizationId: number; name: string; ipAddress?: string | null },
): Promise<Organization> {
  requireCapability(options.principal, "organizations:write", FORBIDDEN);
  return db.transaction(async (tx) => {
    const before = await getOrganizationOrThrow(tx, {
      ...options,
      capability: "organizations:write",
      organizationWide: { forbiddenMessage: FORBIDDEN },
    });
    const [after] = await tx
      .update(organizations)
      .set({ name: options.name, updatedAt: new Date() })
      .where(eq(organizations.id, before.id))
      .returning();
    await recordAuditEntry(tx, {
      organizationId: before.id,
      actorUserId: options.principal.user.id,
      action: "organization.updated",
      entityType: "organization",
      entityId: String(before.id),
      ipAddress: options.ipAddress,
      before: serializeOrganization(before),
      after: serializeOrganization(after!),
    });
    return after!;
  });
}
