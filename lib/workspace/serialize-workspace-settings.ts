import type { Organization, OrganizationLogo } from "@/db/schema";
import { serializeLogo } from "@/lib/branding/organization-logo";

export type WorkspaceSettingsJson = ReturnType<typeof serializeWorkspaceSettings>;

/** Unset values are null: the features that read them apply their own defaults. */
export function serializeWorkspaceSettings(o: Organization, logo: OrganizationLogo | null | undefined) {
  const s = o.settings;
  return {
    organizationId: o.id,
    name: o.name,
    branding: {
      logoUrl: s.logoUrl ?? null,
      brandColor: s.brandColor ?? null,
      displayName: s.displayName ?? null,
      supportEmail: s.supportEmail ?? null,
      supportPhone: s.supportPhone ?? null,
      footer: s.footer ?? null,
      logo: logo ? serializeLogo(logo) : null,
    },
    defaultFlowId: s.defaultFlowId ?? null,
    defaultLanguage: s.defaultLanguage ?? "en",
    reminderCadenceDays: s.reminderCadenceDays ?? null,
    packageExpiryDays: s.packageExpiryDays ?? null,
    updatedAt: o.updatedAt.toISOString(),
  };
}
