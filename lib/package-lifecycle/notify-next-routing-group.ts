import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { issueAccessLinkId } from "@/lib/signer-access/issue-access-link";
import { queueSignerSms } from "@/lib/sms/queue-signer-sms";

export type NotifyNextRoutingGroupOptions = {
  signing: SigningPackage;
  /** The routing order that has just completed; omitted when the package is being sent (the first group). */
  afterRoutingOrder?: number;
  actorUserId: string | null;
  ipAddress?: string | null;
};

/**
 * Moves the next routing group (the lowest routing order above `afterRoutingOrder`, or the lowest
 * at all, that still has pending signers) to `notified`, enqueues their emails — the invitation when
 * the package is being sent, "your turn" for later groups, and the same by text to signers who
 * agreed to texts (`queueSignerSms`) — and writes a `signer.notified` entry per
 * signer, inside the caller's transaction. The one place signers are invited; each email carries
 * the signer's own access link (`issueAccessLinkId`), enqueued by id and rendered when it is sent
 * (no link in the job). Returns the signer ids notified.
 */
export async function notifyNextRoutingGroup(db: Db, options: NotifyNextRoutingGroupOptions): Promise<string[]> {
  const { signing } = options;
  const [next] = await db
    .select({ routingOrder: packageSigners.routingOrder })
    .from(packageSigners)
    .where(
      and(
        eq(packageSigners.packageId, signing.id),
        options.afterRoutingOrder === undefined ? undefined : gt(packageSigners.routingOrder, options.afterRoutingOrder),
        eq(packageSigners.status, "pending"),
      ),
    )
    .orderBy(asc(packageSigners.routingOrder))
    .limit(1);
  if (!next) return [];
  const now = new Date();
  const notified = await db
    .update(packageSigners)
    .set({ status: "notified", notifiedAt: now, updatedAt: now })
    .where(
      and(
        eq(packageSigners.packageId, signing.id),
        eq(packageSigners.routingOrder, next.routingOrder),
        inArray(packageSigners.status, ["pending"]),
      ),
    )
    .returning();
  for (const signer of notified) {
    // Each signer's own access link: the job computes its URL when it sends the email (`send-email`).
    const linkId = await issueAccessLinkId(db, { signing, signerId: signer.id, now });
    const message = options.afterRoutingOrder === undefined ? "signer-invitation" : "signer-your-turn";
    // One key per signer whichever email it is: nobody is invited twice, whoever sends it.
    await enqueueJob(db, sendEmailDeclaration, { message, linkId }, { idempotencyKey: `signing-invite:${signing.id}:${signer.id}` });
    // And by text, with the same link, to a signer with a mobile number and a recorded consent.
    await queueSignerSms(db, {
      signing,
      signer,
      kind: options.afterRoutingOrder === undefined ? "invitation" : "your_turn",
      linkId,
      idempotencyKey: `signing-invite:${signing.id}:${signer.id}`,
    });
    await recordAuditEntry(db, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.actorUserId,
      action: "signer.notified",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      before: { status: "pending" },
      after: { status: "notified", routingOrder: signer.routingOrder },
    });
  }
  return notified.map((s) => s.id);
}
