import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { flows, type Flow, type FlowStep } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getOrganizationOrThrow } from "@/lib/organizations/get-organization-or-throw";
import { serializeFlow } from "./serialize-flow";

/** Creates a flow; `isDefault` makes it the organization's default and unsets the previous one. */
export async function createFlow(
  db: Db,
  options: { principal: Principal; organizationId: number; name: string; steps: FlowStep[]; isDefault: boolean; ipAddress?: string | null },
): Promise<Flow> {
  requireCapability(options.principal, "flows:write", "You do not have permission to create flows.");
  return db.transaction(async (tx) => {
    const organization = await getOrganizationOrThrow(tx, {
      ...options,
      capability: "flows:write",
      organizationWide: { forbiddenMessage: "Creating a flow needs an organization-level role." },
    });
    if (options.isDefault) {
      await tx
        .update(flows)
        .set({ isDefault: false, updatedAt: new Date() })
        .where(and(eq(flows.organizationId, organization.id), eq(flows.isDefault, true)));
    }
    const [created] = await tx
      .insert(flows)
      .values({ organizationId: organization.id, name: options.name, steps: options.steps, isDefault: options.isDefault })
      .returning();
    await recordAuditEntry(tx, {
      organizationId: organization.id,
      actorUserId: options.principal.user.id,
      action: "flow.created",
      entityType: "flow",
      entityId: created!.id,
      ipAddress: options.ipAddress,
      after: serializeFlow(created!),
    });
    return created!;
  });
}
