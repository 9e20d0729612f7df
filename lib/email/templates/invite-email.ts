import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type InviteEmailData = { signerName: string; signingTitle: string; message: string | null; link: string; branding?: EmailBranding };

/** Invites a signer of the first routing group when the package is sent. */
export function inviteEmail(data: InviteEmailData): EmailMessage {
  return buildEmail({
    branding: data.branding,
    subject: `Please sign: ${data.signingTitle}`,
    recipientName: data.signerName,
    paragraphs: [data.message ?? "You have documents to review and sign."],
    action: { label: "Open your signing package", url: data.link },
  });
}
