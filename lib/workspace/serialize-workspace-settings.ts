import type { Organization } from "@/db/schema";

export type WorkspaceSettingsJson = ReturnType<typeof serializeWorkspaceSettings>;

/** Unset values are null: the features that read them apply their own defaults. */
export function serializeWorkspaceSettings(o: Organization) {
  const s = o.settings;
  return {
    organizationId: o.id,
    name: o.name,
    branding: { logoUrl: s.logoUrl ?? null, brandColor: s.brandColor ?? null },
    defaultFlowId: s.defaultFlowId ?? null,
    reminderCadenceDays: s.reminderCadenceDays ?? null,
    packageExpiryDays: s.packageExpiryDays ?? null,
    updatedAt: o.updatedAt.toISOString(),
  };
}
