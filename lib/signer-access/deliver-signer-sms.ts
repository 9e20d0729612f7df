import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, smsMessages, smsOptOuts, type SmsMessage } from "@/db/schema";
import { borrowerEmailBranding } from "@/lib/branding/borrower-email-branding";
import { organizationDefaultLanguage, signerLocale } from "@/lib/i18n/signer-locale";
import { accessLinkUrlOf } from "@/lib/signer-access/issue-access-link";
import { isSmsConfigured } from "@/lib/sms/send-sms";
import { signerSmsText } from "@/lib/sms/signer-sms-text";
import { isSmsOptedOut } from "@/lib/sms/sms-opt-outs";
import { smsStatusCallbackUrl } from "@/lib/sms/sms-webhook-url";
import { createTwilioMessage, SmsRefused, TWILIO_UNSUBSCRIBED } from "@/lib/sms/twilio-sms";

export type DeliverOutcome = "sent" | "skipped" | "failed" | "already-done" | "missing";

/**
 * Sends one queued text, checking again at send time what may have changed since it was queued: the
 * signer's consent and number, a STOP from the number, SMS still configured (each one a `skipped`
 * row with its reason). Twilio's answer is stored (`sent` with its message id); a refusal that
 * cannot succeed later is stored as `failed` (a 21610 "unsubscribed" also records the opt-out);
 * anything else throws so the job retries.
 */
export async function deliverSignerSms(db: Db, payload: { smsMessageId: string; linkId: string } | { smsMessageId: string; body: string }): Promise<DeliverOutcome> {
  const [message] = await db.select().from(smsMessages).where(eq(smsMessages.id, payload.smsMessageId));
  if (!message) return "missing";
  if (message.status !== "queued") return "already-done";
  const skip = async (skipReason: NonNullable<SmsMessage["skipReason"]>) => {
    await db.update(smsMessages).set({ status: "skipped", skipReason, updatedAt: new Date() }).where(eq(smsMessages.id, message.id));
    return "skipped" as const;
  };
  if (message.signerId) {
    const [signer] = await db
      .select({ phone: packageSigners.phone, smsConsentAt: packageSigners.smsConsentAt })
      .from(packageSigners)
      .where(eq(packageSigners.id, message.signerId));
    if (!signer || !signer.smsConsentAt || signer.phone !== message.to) return skip("no_consent");
  }
  if (await isSmsOptedOut(db, { organizationId: message.organizationId, phone: message.to })) return skip("opted_out");
  if (!isSmsConfigured()) return skip("not_configured");

  const body = "body" in payload ? payload.body : await renderSignerText(db, message, payload.linkId);
  if (!body) return "missing";
  try {
    const sent = await createTwilioMessage({ to: message.to, body, statusCallback: smsStatusCallbackUrl() });
    const now = new Date();
    await db
      .update(smsMessages)
      .set({ status: "sent", providerSid: sent.sid, providerStatus: sent.status, sentAt: now, updatedAt: now })
      .where(eq(smsMessages.id, message.id));
    return "sent";
  } catch (error) {
    if (!(error instanceof SmsRefused) || !error.permanent) throw error;
    const now = new Date();
    if (error.code === TWILIO_UNSUBSCRIBED) {
      // The number replied STOP to our sender before we heard of it: honour it from now on.
      await db
        .insert(smsOptOuts)
        .values({ organizationId: message.organizationId, phone: message.to, keyword: "STOP", stoppedAt: now })
        .onConflictDoNothing({ target: [smsOptOuts.organizationId, smsOptOuts.phone] });
      return skip("opted_out");
    }
    await db
      .update(smsMessages)
      .set({ status: "failed", errorCode: String(error.code), updatedAt: now })
      .where(eq(smsMessages.id, message.id));
    return "failed";
  }
}

/**
 * The text of a queued signer message, written at send time: the lender's display name, the signer's
 * language (the manager's choice, else the organization's default, as their emails) and the access
 * link computed from its row. Null when the signer is gone.
 */
async function renderSignerText(db: Db, message: SmsMessage, linkId: string): Promise<string | null> {
  if (!message.signerId) return null;
  const [signer] = await db.select({ language: packageSigners.language }).from(packageSigners).where(eq(packageSigners.id, message.signerId));
  if (!signer) return null;
  const brand = await borrowerEmailBranding(db, message.organizationId);
  const locale = signerLocale(signer, await organizationDefaultLanguage(db, message.organizationId));
  return signerSmsText({ kind: message.kind, lenderName: brand?.branding.displayName ?? "", link: accessLinkUrlOf(linkId), locale });
}
