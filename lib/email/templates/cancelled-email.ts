import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type CancelledEmailData = { signerName: string; signingTitle: string; reason: string | null; branding?: EmailBranding; locale?: Locale };

/** Tells an invited signer who has not finished that the package was cancelled, in the signer's language. */
export function cancelledEmail(data: CancelledEmailData): EmailMessage {
  const locale = data.locale ?? "en";
  const t = borrowerTranslator(locale, "email");
  return buildEmail({
    locale,
    branding: data.branding,
    subject: t("cancelledSubject", { title: data.signingTitle }),
    recipientName: data.signerName,
    // The manager's reason is shown as they wrote it.
    paragraphs: [t("cancelledBody", { title: data.signingTitle }), ...(data.reason ? [t("cancelledReason", { reason: data.reason })] : [])],
  });
}
