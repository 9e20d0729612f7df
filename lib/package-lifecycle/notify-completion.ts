import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type SigningPackage } from "@/db/schema";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { completedEmail } from "@/lib/email/templates/completed-email";
import { signingLink } from "@/lib/email/templates/signing-link";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { issueAccessLinkId } from "@/lib/signer-access/issue-access-link";
import { getSigningCreator } from "@/lib/packages/get-signing-creator";

/** "Completed" mail to the creator and every signer, one idempotent job each. */
export async function notifyCompletion(db: Db, signing: SigningPackage): Promise<void> {
  const managerLink = signingLink(signing.id);
  const creator = await getSigningCreator(db, signing);
  const signers = await db.select().from(packageSigners).where(eq(packageSigners.packageId, signing.id)).orderBy(asc(packageSigners.createdAt), asc(packageSigners.id));
  const recipients = [
    ...(creator ? [{ key: `creator:${creator.id}`, email: creator.email, name: creator.name, signerId: null, language: null }] : []),
    ...signers.map((s) => ({ key: `signer:${s.id}`, email: s.email, name: s.name, signerId: s.id, language: s.language })),
  ];
  for (const recipient of recipients) {
    // Signers get the lender's brand, their language and their own access link (the done page is where
    // a signer without an account downloads the sealed copies), rendered when the job sends it (no link
    // in the payload); the creator, a member of the lender, gets the plain mail in English, like the console.
    const idempotencyKey = `signing-completed:${signing.id}:${recipient.key}`;
    if (recipient.signerId) {
      const linkId = await issueAccessLinkId(db, { signing, signerId: recipient.signerId });
      await enqueueJob(db, sendEmailDeclaration, { message: "signer-completed", linkId }, { idempotencyKey });
      continue;
    }
    const email = completedEmail({ recipientName: recipient.name, signingTitle: signing.title, link: managerLink, locale: "en" });
    await enqueueJob(db, sendEmailDeclaration, { to: recipient.email, ...email }, { idempotencyKey });
  }
}
