import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type SettlementAgentLinkEmailData = {
  agentName: string;
  lenderName: string;
  signingTitle: string;
  /** The appointment in words ("December 1, 2026 at 3:00 PM UTC · 12 Main St"), when there is one. */
  appointment: string | null;
  expiresAt: string;
  link: string;
  branding?: EmailBranding;
};

/** The settlement agent's one-time link to a package's closing: the table packet and the scan upload. */
export function settlementAgentLinkEmail(data: SettlementAgentLinkEmailData): EmailMessage {
  const lender = data.lenderName || "The lender";
  return buildEmail({
    subject: `Closing documents: ${data.signingTitle}`,
    recipientName: data.agentName,
    paragraphs: [
      `${lender} asks you, as the settlement agent of "${data.signingTitle}", to print the table packet and, after the closing, upload the ink-signed pages.`,
      ...(data.appointment ? [`Appointment: ${data.appointment}.`] : []),
      `The link works once: it opens the closing in that browser for up to 12 hours. It expires on ${data.expiresAt}; ask ${lender} for a new one when you need it again.`,
    ],
    action: { label: "Open the closing", url: data.link },
    branding: data.branding,
  });
}
