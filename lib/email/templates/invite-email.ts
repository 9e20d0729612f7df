import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { buildEmail, type EmailBranding, type EmailMessage } from "./email-message";

export type InviteEmailData = { signerName: string; signingTitle: string; message: string | null; link: string; branding?: EmailBranding; locale?: Locale };

/** Invites a signer of the first routing group when the package is sent, in the signer's language. */
export function inviteEmail(data: InviteEmailData): EmailMessage {
  const locale = data.locale ?? "en";
  const t = borrowerTranslator(locale, "email");
  return buildEmail({
    locale,
    branding: data.branding,
    subject: t("inviteSubject", { title: data.signingTitle }),
    recipientName: data.signerName,
    // The sender's own message is shown as they wrote it.
    paragraphs: [data.message ?? t("inviteBody")],
    action: { label: t("open"), url: data.link },
  });
}
