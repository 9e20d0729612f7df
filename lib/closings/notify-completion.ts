import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type SigningPackage } from "@/db/schema";
import { borrowerEmailBranding } from "@/lib/branding/borrower-email-branding";
import { sendEmailJob } from "@/lib/email/send-email-job";
import { completedEmail } from "@/lib/email/templates/completed-email";
import { signingLink } from "@/lib/email/templates/signing-link";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { issueAccessLink } from "@/lib/signer-access/issue-access-link";
import { getSigningCreator } from "@/lib/signings/get-signing-creator";
import { organizationDefaultLanguage, signerLocale } from "@/lib/i18n/signer-locale";

/** "Completed" mail to the creator and every signer, one idempotent job each. */
export async function notifyCompletion(db: Db, signing: SigningPackage): Promise<void> {
  const managerLink = signingLink(signing.id);
  const creator = await getSigningCreator(db, signing);
  const signers = await db.select().from(packageSigners).where(eq(packageSigners.packageId, signing.id)).orderBy(asc(packageSigners.createdAt), asc(packageSigners.id));
  const recipients = [
    ...(creator ? [{ key: `creator:${creator.id}`, email: creator.email, name: creator.name, signerId: null, language: null }] : []),
    ...signers.map((s) => ({ key: `signer:${s.id}`, email: s.email, name: s.name, signerId: s.id, language: s.language })),
  ];
  const brand = await borrowerEmailBranding(db, signing.organizationId);
  const organizationLanguage = await organizationDefaultLanguage(db, signing.organizationId);
  for (const recipient of recipients) {
    // Signers get the lender's brand and their own access link (the done page is where a signer without
    // an account downloads the sealed copies); the creator, a member of the lender, gets the plain mail.
    const borrower = recipient.signerId !== null;
    const link = recipient.signerId ? await issueAccessLink(db, { signing, signerId: recipient.signerId }) : managerLink;
    const email = completedEmail({
      recipientName: recipient.name,
      signingTitle: signing.title,
      link,
      branding: borrower ? brand?.branding : undefined,
      // Signers read it in their language; the creator's mail stays English, like the console.
      locale: borrower ? signerLocale(recipient, organizationLanguage) : "en",
    });
    await enqueueJob(db, sendEmailJob, { to: recipient.email, ...email, ...(borrower ? brand?.sender : {}) }, { idempotencyKey: `signing-completed:${signing.id}:${recipient.key}` });
  }
}
