import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type CancelledEmailData = { signerName: string; signingTitle: string; reason: string | null; branding?: EmailBranding };

/** Tells an invited signer who has not finished that the package was cancelled. */
export function cancelledEmail(data: CancelledEmailData): EmailMessage {
  return buildEmail({
    branding: data.branding,
    subject: `Cancelled: ${data.signingTitle}`,
    recipientName: data.signerName,
    paragraphs: [
      `The signing package "${data.signingTitle}" was cancelled and no longer needs your signature.`,
      ...(data.reason ? [`Reason: ${data.reason}`] : []),
    ],
  });
}
