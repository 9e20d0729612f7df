import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type AttachmentRejectedEmailData = {
  signerName: string;
  signingTitle: string;
  requestName: string;
  reason: string;
  link: string;
  branding?: EmailBranding;
  locale?: Locale;
};

/** Tells a signer that a file they sent was not accepted, why, and where to send another, in the signer's language. */
export function attachmentRejectedEmail(data: AttachmentRejectedEmailData): EmailMessage {
  const locale = data.locale ?? "en";
  const t = borrowerTranslator(locale, "email");
  return buildEmail({
    locale,
    branding: data.branding,
    subject: t("attachmentRejectedSubject", { title: data.signingTitle }),
    recipientName: data.signerName,
    paragraphs: [
      t("attachmentRejectedBody", { name: data.requestName, title: data.signingTitle }),
      t("attachmentRejectedReason", { reason: data.reason }),
      t("attachmentRejectedAgain"),
    ],
    action: { label: t("open"), url: data.link },
  });
}
