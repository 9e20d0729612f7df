import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type CompletedEmailData = { recipientName: string; signingTitle: string; link: string; branding?: EmailBranding };

/** Tells the creator and every signer that all required signatures are in. */
export function completedEmail(data: CompletedEmailData): EmailMessage {
  return buildEmail({
    branding: data.branding,
    subject: `Completed: ${data.signingTitle}`,
    recipientName: data.recipientName,
    paragraphs: [`Everyone has signed "${data.signingTitle}". The signing package is complete.`],
    action: { label: "View the signing package", url: data.link },
  });
}
