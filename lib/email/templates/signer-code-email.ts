import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type SignerCodeEmailData = { signerName: string; signingTitle: string; code: string; branding?: EmailBranding; locale?: Locale };

/** The one-time code a signer types after opening their link (`email_code`), in the signer's language. */
export function signerCodeEmail(data: SignerCodeEmailData): EmailMessage {
  const locale = data.locale ?? "en";
  const t = borrowerTranslator(locale, "email");
  return buildEmail({
    locale,
    branding: data.branding,
    subject: t("codeSubject", { title: data.signingTitle }),
    recipientName: data.signerName,
    paragraphs: [t("codeBody", { title: data.signingTitle, code: data.code }), t("codeValid")],
  });
}
