import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { smsMessages, type PackageSigner, type SigningPackage, type SmsKind } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { isSmsConfigured } from "./send-sms";
import { sendSignerSmsDeclaration } from "./send-signer-sms-payload";
import { isSmsOptedOut } from "./sms-opt-outs";

export type QueueSignerSmsOptions = {
  signing: Pick<SigningPackage, "id" | "organizationId">;
  signer: Pick<PackageSigner, "id" | "phone" | "smsConsentAt" | "language">;
  kind: SmsKind;
  /** The signer's access link (`issueAccessLinkId`), the same one the email of the same moment carries. */
  linkId: string;
  /** Names the moment, as the email job's key does: the same key queues one text. */
  idempotencyKey: string;
};

/**
 * The text beside an invitation, "your turn" or reminder email, inside the caller's transaction (the
 * SMS outbox: an `sms_messages` row and its `send-signer-sms` job commit with the change that causes
 * them). Queues nothing, quietly, when SMS is not configured, the signer has no mobile number or no
 * recorded consent, or the number stopped this organization's texts. Returns the message id or null.
 * The job holds ids only: the text (lender's name, signer's language, link) is written when it is sent.
 */
export async function queueSignerSms(db: Db, options: QueueSignerSmsOptions): Promise<string | null> {
  const { signing, signer } = options;
  if (!isSmsConfigured() || !signer.phone || !signer.smsConsentAt) return null;
  if (await isSmsOptedOut(db, { organizationId: signing.organizationId, phone: signer.phone })) return null;
  const [row] = await db
    .insert(smsMessages)
    .values({ organizationId: signing.organizationId, packageId: signing.id, signerId: signer.id, to: signer.phone, kind: options.kind })
    .returning({ id: smsMessages.id });
  const job = await enqueueJob(db, sendSignerSmsDeclaration, { smsMessageId: row!.id, linkId: options.linkId }, { idempotencyKey: `sms:${options.idempotencyKey}` });
  if (!job.created) {
    // Already queued for this moment (a retried request): the row just written is not needed.
    await db.delete(smsMessages).where(eq(smsMessages.id, row!.id));
    return null;
  }
  return row!.id;
}
