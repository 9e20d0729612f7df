import { formatDateTime } from "@/lib/format";
import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type ReminderEmailData = {
  signerName: string;
  signingTitle: string;
  senderName: string;
  link: string;
  expiresAt: Date | null;
  branding?: EmailBranding;
  locale?: Locale;
};

/** Reminds a signer of the current routing group that their signature is still awaited, in the signer's language. */
export function reminderEmail(data: ReminderEmailData): EmailMessage {
  const locale = data.locale ?? "en";
  const t = borrowerTranslator(locale, "email");
  return buildEmail({
    locale,
    branding: data.branding,
    subject: t("reminderSubject", { title: data.signingTitle }),
    recipientName: data.signerName,
    paragraphs: [
      t("reminderBody", { sender: data.senderName, title: data.signingTitle }),
      ...(data.expiresAt ? [t("reminderUntil", { date: formatDateTime(data.expiresAt, "long", locale) })] : []),
    ],
    action: { label: t("open"), url: data.link },
  });
}
