import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type NewAccessLinkEmailData = { signerName: string; signingTitle: string; link: string; branding?: EmailBranding; locale?: Locale };

/** A fresh link, asked for from a used or expired one ("Email me a new link"), in the signer's language. */
export function newAccessLinkEmail(data: NewAccessLinkEmailData): EmailMessage {
  const locale = data.locale ?? "en";
  const t = borrowerTranslator(locale, "email");
  return buildEmail({
    locale,
    branding: data.branding,
    subject: t("newLinkSubject", { title: data.signingTitle }),
    recipientName: data.signerName,
    paragraphs: [t("newLinkBody", { title: data.signingTitle })],
    action: { label: t("open"), url: data.link },
  });
}
