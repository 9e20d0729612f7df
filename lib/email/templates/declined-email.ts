import { buildEmail, type EmailMessage } from "./email-message";

export type DeclinedEmailData = { recipientName: string; signingTitle: string; signerName: string; reason: string; link: string };

/** Tells the package's creator that a signer declined, which ends the package. */
export function declinedEmail(data: DeclinedEmailData): EmailMessage {
  return buildEmail({
    subject: `Declined: ${data.signingTitle}`,
    recipientName: data.recipientName,
    paragraphs: [
      `${data.signerName} declined to sign "${data.signingTitle}". The package is closed and can no longer be signed.`,
      `Reason: ${data.reason}`,
    ],
    action: { label: "View the signing package", url: data.link },
  });
}
