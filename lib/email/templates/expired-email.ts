import { buildEmail, type EmailMessage } from "./email-message";

export type ExpiredEmailData = { recipientName: string; signingTitle: string; expiresAt: Date; link: string };

/** Tells the package's creator that its deadline passed before every signer had signed. */
export function expiredEmail(data: ExpiredEmailData): EmailMessage {
  return buildEmail({
    subject: `Expired: ${data.signingTitle}`,
    recipientName: data.recipientName,
    paragraphs: [
      `The signing package "${data.signingTitle}" expired on ${data.expiresAt.toISOString()} before every signer had signed.`,
      "It can no longer be signed. Create and send a new package if it is still needed.",
    ],
    action: { label: "View the signing package", url: data.link },
  });
}
