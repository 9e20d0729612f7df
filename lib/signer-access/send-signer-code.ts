import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signerAuthChallenges, type PackageSigner, type SignerSession, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { organizationDefaultLanguage, signerLocale } from "@/lib/i18n/signer-locale";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { TooManyRequests } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { sendSms } from "@/lib/sms/send-sms";
import { SIGNER_CODE_TTL_MS, SIGNER_RESEND_INTERVAL_MS } from "./rules";
import { challengeCode, codeHmac } from "@/lib/security/secrets";

/**
 * Creates a one-time code for a signer session and sends it — by email through the outbox job, or
 * by text message through the SMS adapter (503 when SMS is not configured) — and records
 * `signer.auth_requested` (the method, never the code). At most one code a minute per session.
 */
export async function sendSignerCode(
  db: Db,
  options: {
    session: Pick<SignerSession, "id">;
    signing: Pick<SigningPackage, "id" | "organizationId" | "title">;
    signer: Pick<PackageSigner, "id" | "name" | "email" | "phone" | "language">;
    method: "email_code" | "sms_code";
    ipAddress?: string | null;
    userAgent?: string | null;
    now?: Date;
  },
): Promise<void> {
  const now = options.now ?? new Date();
  const [last] = await db
    .select({ createdAt: signerAuthChallenges.createdAt })
    .from(signerAuthChallenges)
    .where(and(eq(signerAuthChallenges.sessionId, options.session.id), eq(signerAuthChallenges.method, options.method)))
    .orderBy(desc(signerAuthChallenges.createdAt))
    .limit(1);
  if (last && now.getTime() - last.createdAt.getTime() < SIGNER_RESEND_INTERVAL_MS) {
    const wait = Math.ceil((SIGNER_RESEND_INTERVAL_MS - (now.getTime() - last.createdAt.getTime())) / 1000);
    throw TooManyRequests(`A code was sent less than a minute ago. You can ask for another in ${wait} seconds.`, wait);
  }
  const [challenge] = await db
    .insert(signerAuthChallenges)
    .values({
      sessionId: options.session.id,
      signerId: options.signer.id,
      method: options.method,
      codeHmac: "pending",
      expiresAt: new Date(now.getTime() + SIGNER_CODE_TTL_MS),
      createdAt: now,
    })
    .returning({ id: signerAuthChallenges.id });
  // The code is computed from the challenge's id under the auth secret (`challengeCode`): the email
  // job computes it again when it sends the mail, so it is in no payload, and a retry sends the same one.
  const code = challengeCode(challenge!.id);
  await db.update(signerAuthChallenges).set({ codeHmac: codeHmac(challenge!.id, code) }).where(eq(signerAuthChallenges.id, challenge!.id));
  if (options.method === "email_code") {
    await enqueueJob(db, sendEmailDeclaration, { message: "signer-code", challengeId: challenge!.id });
  } else {
    const locale = signerLocale(options.signer, await organizationDefaultLanguage(db, options.signing.organizationId));
    const t = borrowerTranslator(locale, "email");
    await sendSms({ to: options.signer.phone ?? "", body: t("codeText", { title: options.signing.title, code }) });
  }
  await recordAuditEntry(db, {
    organizationId: options.signing.organizationId,
    packageId: options.signing.id,
    actorUserId: null,
    action: "signer.auth_requested",
    entityType: "package_signer",
    entityId: options.signer.id,
    ipAddress: options.ipAddress,
    after: { method: options.method, userAgent: options.userAgent?.slice(0, 500) ?? null },
  });
}
