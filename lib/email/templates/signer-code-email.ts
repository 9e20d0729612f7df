import { buildEmail, type EmailMessage } from "./email-message";

export type SignerCodeEmailData = { signerName: string; signingTitle: string; code: string };

/** The one-time code a signer types after opening their link (`email_code`). */
export function signerCodeEmail(data: SignerCodeEmailData): EmailMessage {
  return buildEmail({
    subject: `Your code for ${data.signingTitle}`,
    recipientName: data.signerName,
    paragraphs: [
      `Your code to open "${data.signingTitle}" is ${data.code}.`,
      "It works for 10 minutes. If you did not just open this signing package, ignore this email: nobody can open it without the code.",
    ],
  });
}
