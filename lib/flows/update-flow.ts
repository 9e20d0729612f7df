import { and, eq, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { flows, type Flow, type FlowStep } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getFlowOrThrow } from "./get-flow-or-throw";
import { serializeFlow } from "./serialize-flow";

/**
 * Renames a flow, replaces its steps, or makes it the default (`isDefault: true`; a default is
 * replaced by making another flow the default, never by unsetting it).
 */
export async function updateFlow(
  db: Db,
  options: { principal: Principal; flowId: string; name?: string; steps?: FlowStep[]; isDefault?: true; ipAddress?: string | null },
): Promise<Flow> {
  requireCapability(options.principal, "flows:write", "You do not have permission to change flows.");
  return db.transaction(async (tx) => {
    const before = await getFlowOrThrow(tx, {
      ...options,
      capability: "flows:write",
      forbiddenMessage: "Changing a flow needs an organization-level role.",
      lock: true,
    });
    if (options.isDefault) {
      await tx
        .update(flows)
        .set({ isDefault: false, updatedAt: new Date() })
        .where(and(eq(flows.organizationId, before.organizationId), eq(flows.isDefault, true), ne(flows.id, before.id)));
    }
    const [after] = await tx
      .update(flows)
      .set({
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.steps !== undefined ? { steps: options.steps } : {}),
        ...(options.isDefault ? { isDefault: true } : {}),
        updatedAt: new Date(),
      })
      .where(eq(flows.id, before.id))
      .returning();
    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      actorUserId: options.principal.user.id,
      action: "flow.updated",
      entityType: "flow",
      entityId: before.id,
      ipAddress: options.ipAddress,
      before: serializeFlow(before),
      after: serializeFlow(after!),
    });
    return after!;
  });
}
