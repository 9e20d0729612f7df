import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { fromHeader } from "@/lib/email/send-email";
import { inviteEmail } from "@/lib/email/templates/invite-email";
import { getEnv } from "@/lib/env";
import { NotFound } from "@/lib/errors";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import type { WorkspaceSettingsChange } from "@/lib/workspace/update-workspace-settings";
import { brandedSender, brandingOf, emailBrandingOf, type Branding } from "@/lib/branding/branding";
import { findOrganizationLogo } from "@/lib/branding/organization-logo";

export type BrandPreview = {
  mark: { displayName: string; color: string; logoPath: string | null };
  email: { from: string; replyTo: string | null; subject: string; html: string };
  footer: string | null;
  support: string | null;
};

/** A sample invitation and page header as a borrower would see them with `branding`. */
export function previewOf(branding: Branding): BrandPreview {
  const sender = brandedSender(branding);
  // Relative logo address: the preview is shown on our own origin, whatever APP_URL says.
  const email = inviteEmail({
    signerName: "Pat Borrower",
    signingTitle: "Sample: purchase of 12 Oak Street",
    message: null,
    link: `${getEnv().APP_URL.replace(/\/+$/, "")}/signings/sample`,
    branding: emailBrandingOf(branding, ""),
  });
  return {
    mark: { displayName: branding.displayName, color: branding.color, logoPath: branding.logoPath },
    email: { from: fromHeader(getEnv().EMAIL_FROM, sender.fromName), replyTo: sender.replyTo ?? null, subject: email.subject, html: email.html },
    footer: branding.footer,
    support: [branding.supportEmail, branding.supportPhone].filter(Boolean).join(" · ") || null,
  };
}

/**
 * The preview of the organization's branding with `change` applied but not saved (the settings page's
 * "Preview" button), for those who may change it. `change` is validated by the settings schema.
 */
export async function previewBrandingChange(
  db: Db,
  options: { principal: Principal; organizationId?: number; change: WorkspaceSettingsChange; capability?: "settings:read" | "settings:write" },
): Promise<BrandPreview> {
  const { change } = options;
  const organizationId = resolveOrganizationId(options.principal, {
    capability: options.capability ?? "settings:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to change workspace settings.",
  });
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw NotFound(`Organization ${organizationId} not found.`);
  const settings: Record<string, unknown> = { ...organization.settings };
  for (const [key, value] of Object.entries(change.branding ?? {})) {
    if (value === null) delete settings[key];
    else if (value !== undefined) settings[key] = value;
  }
  const merged = { ...organization, name: change.name ?? organization.name, settings: settings as typeof organization.settings };
  return previewOf(brandingOf(merged, await findOrganizationLogo(db, organizationId)));
}

/** The preview of the saved branding (the settings page before any change). */
export async function previewSavedBranding(db: Db, options: { principal: Principal; organizationId?: number }): Promise<BrandPreview> {
  return previewBrandingChange(db, { ...options, change: {}, capability: "settings:read" });
}
