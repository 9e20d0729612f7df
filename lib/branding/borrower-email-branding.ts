import type { Db } from "@/db/client";
import type { EmailBranding } from "@/lib/email/templates/email-message";
import { getEnv } from "@/lib/env";
import { brandedSender, emailBrandingOf, getOrganizationBranding } from "./branding";

export type BorrowerEmailBranding = { branding: EmailBranding; sender: { fromName: string; replyTo?: string } };

/**
 * What a borrower email of the organization carries: the template's branding (header, button, footer)
 * and the job's sender fields. Undefined only when the organization is gone (the mail goes out plain).
 */
export async function borrowerEmailBranding(db: Db, organizationId: number): Promise<BorrowerEmailBranding | undefined> {
  const branding = await getOrganizationBranding(db, organizationId);
  if (!branding) return undefined;
  return { branding: emailBrandingOf(branding, getEnv().APP_URL), sender: brandedSender(branding) };
}
