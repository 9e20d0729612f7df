import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type YourTurnEmailData = { signerName: string; signingTitle: string; link: string; branding?: EmailBranding; locale?: Locale };

/** Tells a signer of a later routing group that the earlier groups have signed, in the signer's language. */
export function yourTurnEmail(data: YourTurnEmailData): EmailMessage {
  const locale = data.locale ?? "en";
  const t = borrowerTranslator(locale, "email");
  return buildEmail({
    locale,
    branding: data.branding,
    subject: t("yourTurnSubject", { title: data.signingTitle }),
    recipientName: data.signerName,
    paragraphs: [t("yourTurnBody", { title: data.signingTitle })],
    action: { label: t("open"), url: data.link },
  });
}
