import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { settlementAgentLinks, signingPackages } from "@/db/schema";
import { borrowerEmailBranding } from "@/lib/branding/borrower-email-branding";
import type { Email } from "@/lib/email/send-email";
import type { agentLinkEmailSchema } from "@/lib/email/send-email-payload";
import { settlementAgentLinkEmail } from "@/lib/email/templates/settlement-agent-link-email";
import { formatDateTime } from "@/lib/format";
import { agentLinkToken } from "@/lib/security/secrets";
import { agentLinkUrl } from "./rules";


/**
 * Renders the settlement agent's email at send time: the lender's brand, the package's appointment
 * and the link computed from its row (`agentLinkToken`), so the job's payload holds no link. Null
 * when the link or its package is gone.
 */
export async function renderAgentLinkEmail(db: Db, payload: z.output<typeof agentLinkEmailSchema>): Promise<Email | null> {
  const [row] = await db
    .select({ link: settlementAgentLinks, signing: signingPackages })
    .from(settlementAgentLinks)
    .innerJoin(signingPackages, eq(signingPackages.id, settlementAgentLinks.packageId))
    .where(eq(settlementAgentLinks.id, payload.agentLinkId));
  if (!row) return null;
  const { link, signing } = row;
  const brand = await borrowerEmailBranding(db, signing.organizationId);
  const appointment = signing.closingAt ? [formatDateTime(signing.closingAt, "long"), signing.closingPlace].filter(Boolean).join(" · ") : signing.closingPlace;
  const email = settlementAgentLinkEmail({
    agentName: link.agentName,
    lenderName: brand?.branding.displayName ?? "",
    signingTitle: signing.title,
    appointment: appointment || null,
    expiresAt: formatDateTime(link.expiresAt, "long"),
    link: agentLinkUrl(agentLinkToken(link.id)),
    branding: brand?.branding,
  });
  return { to: link.agentEmail, ...email, ...brand?.sender };
}
