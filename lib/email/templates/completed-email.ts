import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type CompletedEmailData = { recipientName: string; signingTitle: string; link: string; branding?: EmailBranding; locale?: Locale };

/** Tells the creator and every signer that all required signatures are in (signers in their language). */
export function completedEmail(data: CompletedEmailData): EmailMessage {
  const locale = data.locale ?? "en";
  const t = borrowerTranslator(locale, "email");
  return buildEmail({
    locale,
    branding: data.branding,
    subject: t("completedSubject", { title: data.signingTitle }),
    recipientName: data.recipientName,
    paragraphs: [t("completedBody", { title: data.signingTitle })],
    action: { label: t("completedAction"), url: data.link },
  });
}
