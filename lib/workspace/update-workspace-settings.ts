import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { flows, organizations, type OrganizationSettings } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Principal } from "@/lib/auth/principal";
import { findOrganizationLogo } from "@/lib/branding/organization-logo";
import { BadRequest, NotFound } from "@/lib/errors";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import { serializeWorkspaceSettings, type WorkspaceSettingsJson } from "./serialize-workspace-settings";

export type WorkspaceSettingsChange = {
  name?: string;
  branding?: {
    logoUrl?: string | null;
    brandColor?: string | null;
    displayName?: string | null;
    supportEmail?: string | null;
    supportPhone?: string | null;
    footer?: string | null;
  };
  defaultFlowId?: string | null;
  defaultLanguage?: "en" | "es" | null;
  reminderCadenceDays?: number | null;
  packageExpiryDays?: number | null;
};

/** Merges a change into `settings` (null clears a value) and renames; the default flow must be the organization's. */
export async function updateWorkspaceSettings(
  db: Db,
  options: { principal: Principal; organizationId?: number; change: WorkspaceSettingsChange; ipAddress?: string | null },
): Promise<WorkspaceSettingsJson> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "settings:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to change workspace settings.",
  });
  const { change } = options;
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(organizations).where(eq(organizations.id, organizationId)).for("update");
    if (!before) throw NotFound(`Organization ${organizationId} not found.`);
    if (change.defaultFlowId) {
      const [flow] = await tx
        .select({ id: flows.id })
        .from(flows)
        .where(and(eq(flows.id, change.defaultFlowId), eq(flows.organizationId, organizationId)));
      if (!flow) throw BadRequest(`defaultFlowId: flow ${change.defaultFlowId} is not a flow of this organization.`);
    }
    const merged: Record<string, unknown> = { ...before.settings };
    const assign = (key: keyof OrganizationSettings, value: unknown) => {
      if (value === undefined) return;
      if (value === null) delete merged[key];
      else merged[key] = value;
    };
    assign("logoUrl", change.branding?.logoUrl);
    assign("brandColor", change.branding?.brandColor);
    assign("displayName", change.branding?.displayName);
    assign("supportEmail", change.branding?.supportEmail);
    assign("supportPhone", change.branding?.supportPhone);
    assign("footer", change.branding?.footer);
    assign("defaultFlowId", change.defaultFlowId);
    assign("defaultLanguage", change.defaultLanguage);
    assign("reminderCadenceDays", change.reminderCadenceDays);
    assign("packageExpiryDays", change.packageExpiryDays);
    const [after] = await tx
      .update(organizations)
      .set({ settings: merged as OrganizationSettings, ...(change.name !== undefined ? { name: change.name } : {}) })
      .where(eq(organizations.id, organizationId))
      .returning();
    const logo = await findOrganizationLogo(tx, organizationId);
    await recordAuditEntry(tx, {
      organizationId,
      actorUserId: options.principal.user.id,
      action: "settings.updated",
      entityType: "organization",
      entityId: String(organizationId),
      ipAddress: options.ipAddress,
      before: serializeWorkspaceSettings(before, logo),
      after: serializeWorkspaceSettings(after!, logo),
    });
    return serializeWorkspaceSettings(after!, logo);
  });
}
