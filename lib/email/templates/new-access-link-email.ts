import { buildEmail, type EmailMessage } from "./email-message";

export type NewAccessLinkEmailData = { signerName: string; signingTitle: string; link: string };

/** A fresh link, asked for from a used or expired one ("Email me a new link"). */
export function newAccessLinkEmail(data: NewAccessLinkEmailData): EmailMessage {
  return buildEmail({
    subject: `Your new link: ${data.signingTitle}`,
    recipientName: data.signerName,
    paragraphs: [`Here is a new link to "${data.signingTitle}". Older links to it no longer work.`],
    action: { label: "Open your signing package", url: data.link },
  });
}
