import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type YourTurnEmailData = { signerName: string; signingTitle: string; link: string; branding?: EmailBranding };

/** Tells a signer of a later routing group that the earlier groups have signed. */
export function yourTurnEmail(data: YourTurnEmailData): EmailMessage {
  return buildEmail({
    branding: data.branding,
    subject: `Ready for your signature: ${data.signingTitle}`,
    recipientName: data.signerName,
    paragraphs: [`The documents of "${data.signingTitle}" are ready for your signature.`],
    action: { label: "Open your signing package", url: data.link },
  });
}
