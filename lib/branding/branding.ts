import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizationLogos, organizations, type Organization, type OrganizationLogo } from "@/db/schema";
import type { EmailBranding } from "@/lib/email/templates/email-message";
import { logoPath } from "./organization-logo";

/** Our name, where borrowers see it next to the lender's ("<Lender> via Closing & Signing"). */
export const PRODUCT_NAME = "Closing & Signing";
/** The colour of buttons and links when the organization has not chosen one (7.0:1 on white). */
export const DEFAULT_BRAND_COLOR = "#1d4ed8";

/** What borrower-facing surfaces (signer pages, emails, texts, the certificate, `/verify`) show of the lender. */
export type Branding = {
  organizationId: number;
  /** The lender's name as borrowers should read it. */
  displayName: string;
  color: string;
  /** Our-origin path of the uploaded logo (`/branding/<id>/logo?v=…`), or null. */
  logoPath: string | null;
  /** An https:// logo address for emails only, when no file is uploaded. */
  logoUrl: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  footer: string | null;
  /** True when the organization set a colour or a logo of its own. */
  custom: boolean;
};

/** What a borrower-facing page shows of the lender: its name, colour and logo (a plain object, safe for client components). */
export type BrandMark = Pick<Branding, "displayName" | "color" | "logoPath">;

/**
 * The lender's mark from `getOrganizationBranding`'s answer; when the organization is missing, the
 * given name with the default colour and no logo.
 */
export function brandMarkOf(branding: Branding | undefined, fallbackName = ""): BrandMark {
  return { displayName: branding?.displayName ?? fallbackName, color: branding?.color ?? DEFAULT_BRAND_COLOR, logoPath: branding?.logoPath ?? null };
}

export function brandingOf(organization: Organization, logo: Pick<OrganizationLogo, "organizationId" | "sha256"> | null | undefined): Branding {
  const s = organization.settings;
  return {
    organizationId: organization.id,
    displayName: s.displayName?.trim() || organization.name,
    // Checked when saved; a value written some other way never reaches a style attribute.
    color: s.brandColor && /^#[0-9a-f]{6}$/i.test(s.brandColor) ? s.brandColor : DEFAULT_BRAND_COLOR,
    logoPath: logo ? logoPath(logo) : null,
    logoUrl: s.logoUrl ?? null,
    supportEmail: s.supportEmail ?? null,
    supportPhone: s.supportPhone ?? null,
    footer: s.footer ?? null,
    custom: Boolean(s.brandColor || logo || s.logoUrl),
  };
}

/** The organization's branding (one query); undefined when the organization does not exist. */
export async function getOrganizationBranding(db: Db, organizationId: number): Promise<Branding | undefined> {
  const [row] = await db
    .select({ organization: organizations, logoSha: organizationLogos.sha256 })
    .from(organizations)
    .leftJoin(organizationLogos, eq(organizationLogos.organizationId, organizations.id))
    .where(eq(organizations.id, organizationId));
  if (!row) return undefined;
  return brandingOf(row.organization, row.logoSha ? { organizationId, sha256: row.logoSha } : null);
}

/** The sender's display name of borrower emails: "<Lender> via Closing & Signing". */
export function senderName(branding: Pick<Branding, "displayName">): string {
  // Quotes, angle brackets and line breaks would break the From header's display-name.
  const name = branding.displayName.replace(/["<>\r\n\\]/g, "").trim().slice(0, 100);
  return name ? `${name} via ${PRODUCT_NAME}` : PRODUCT_NAME;
}

/** The branding of a borrower email: absolute logo address (our origin first), colours, contacts. */
export function emailBrandingOf(branding: Branding, appUrl: string): EmailBranding {
  const origin = appUrl.replace(/\/+$/, "");
  return {
    displayName: branding.displayName,
    color: branding.color,
    logoSrc: branding.logoPath ? `${origin}${branding.logoPath}` : branding.logoUrl,
    supportEmail: branding.supportEmail,
    supportPhone: branding.supportPhone,
    footer: branding.footer,
  };
}

/** The `send-email` job's sender fields for a borrower email: "<Lender> via …" and reply-to the lender's support. */
export function brandedSender(branding: Branding): { fromName: string; replyTo?: string } {
  return { fromName: senderName(branding), ...(branding.supportEmail ? { replyTo: branding.supportEmail } : {}) };
}
