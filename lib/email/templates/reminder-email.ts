import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type ReminderEmailData = { signerName: string; signingTitle: string; senderName: string; link: string; expiresAt: Date | null; branding?: EmailBranding };

/** Reminds a signer of the current routing group that their signature is still awaited. */
export function reminderEmail(data: ReminderEmailData): EmailMessage {
  return buildEmail({
    branding: data.branding,
    subject: `Reminder: please sign ${data.signingTitle}`,
    recipientName: data.signerName,
    paragraphs: [
      `${data.senderName} is still waiting for your signature on "${data.signingTitle}".`,
      ...(data.expiresAt ? [`The package can be signed until ${data.expiresAt.toUTCString()}.`] : []),
    ],
    action: { label: "Open your signing package", url: data.link },
  });
}
