import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { attachmentRequests, packageSigners, signerAttachments, type SignerAttachment, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { completePackageIfDone } from "@/lib/package-lifecycle/complete-package-if-done";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { BadRequest, Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { issueAccessLinkId } from "@/lib/signer-access/issue-access-link";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";
import { attachmentReviewSchema, type AttachmentReview } from "./attachment-request-schema";

export type ReviewSignerAttachmentOptions = {
  principal: Principal;
  packageId: string;
  attachmentId: string;
  review: AttachmentReview;
  ipAddress?: string | null;
};

/**
 * A manager accepts or rejects a file a signer sent (`pending` only). Accepting may complete the
 * package: when it was the last thing missing (every signature in, every required attachment
 * accepted), the package completes and is sealed. Rejecting needs a reason: the signer is emailed
 * (through the outbox, with their own access link) and sees the reason on their page, where they
 * send another file. Audited (`attachment.accepted` / `attachment.rejected`, with the file's SHA-256
 * and the reason), which also emits the webhook event. 400 for a bad decision, 404 outside the
 * manager's scope, 409 when the file was already reviewed or the package is closed.
 */
export async function reviewSignerAttachment(
  db: Db,
  options: ReviewSignerAttachmentOptions,
): Promise<{ attachment: SignerAttachment; signing: SigningPackage }> {
  requireCapability(options.principal, "signings:write", "You do not have permission to review attachments.");
  const review = attachmentReviewSchema.safeParse(options.review);
  if (!review.success) throw BadRequest(review.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { principal: options.principal, packageId: options.packageId, capability: "signings:write", lock: true });
    const [found] = isUuid(options.attachmentId)
      ? await tx
          .select({ attachment: signerAttachments, requestName: attachmentRequests.name, signerStatus: packageSigners.status })
          .from(signerAttachments)
          .innerJoin(attachmentRequests, eq(attachmentRequests.id, signerAttachments.requestId))
          .innerJoin(packageSigners, eq(packageSigners.id, signerAttachments.signerId))
          .where(and(eq(signerAttachments.id, options.attachmentId), eq(signerAttachments.packageId, signing.id)))
          .for("update", { of: signerAttachments })
      : [];
    if (!found) throw NotFound("That attachment is not on this package.");
    if (!isOpenSigningStatus(signing.status)) {
      throw Conflict(`This package is ${signingStatusLabel(signing.status)}; its attachments can no longer be reviewed.`, "package_closed");
    }
    if (found.attachment.status !== "pending") throw Conflict(`This attachment was already ${found.attachment.status}.`);
    const now = new Date();
    const userId = options.principal.user.id;
    const decision = review.data;
    const [updated] = await tx
      .update(signerAttachments)
      .set({
        status: decision.decision === "accept" ? "accepted" : "rejected",
        rejectReason: decision.decision === "reject" ? decision.reason : null,
        reviewedByUserId: userId,
        reviewedAt: now,
      })
      .where(eq(signerAttachments.id, found.attachment.id))
      .returning();
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: userId,
      action: decision.decision === "accept" ? "attachment.accepted" : "attachment.rejected",
      entityType: "signer_attachment",
      entityId: updated!.id,
      ipAddress: options.ipAddress,
      after: {
        signerId: updated!.signerId,
        requestId: updated!.requestId,
        requestName: found.requestName,
        fileName: updated!.fileName,
        sha256: updated!.sha256,
        ...(decision.decision === "reject" ? { reason: decision.reason } : {}),
      },
    });
    if (decision.decision === "reject") {
      if (found.signerStatus !== "declined") {
        const linkId = await issueAccessLinkId(tx, { signing, signerId: updated!.signerId });
        await enqueueJob(tx, sendEmailDeclaration, { message: "signer-attachment-rejected", linkId, attachmentId: updated!.id }, { idempotencyKey: `attachment-rejected:${updated!.id}` });
      }
      return { attachment: updated!, signing };
    }
    const result = await completePackageIfDone(tx, signing, { actorUserId: userId, ipAddress: options.ipAddress, at: now });
    return { attachment: updated!, signing: result.signing };
  });
}
