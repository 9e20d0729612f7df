import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { attachmentRequests, signerAttachments, type AttachmentRequest, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { BadRequest, Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { completePackageIfDone } from "@/lib/package-lifecycle/complete-package-if-done";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";

type RequestChangeOptions = { principal: Principal; packageId: string; requestId: string; ipAddress?: string | null };

/**
 * Locks the package (a draft or an open one, in the manager's scope) and finds one of its requests
 * with how many files its signer sent. 404 outside the scope or for a request not on the package;
 * 409 once the package is closed.
 */
async function lockRequest(tx: Db, options: RequestChangeOptions): Promise<{ signing: SigningPackage; request: AttachmentRequest; files: number }> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change what signers are asked for.");
  const signing = await getSigningOrThrow(tx, { principal: options.principal, packageId: options.packageId, capability: "signings:write", lock: true });
  const [request] = isUuid(options.requestId)
    ? await tx
        .select()
        .from(attachmentRequests)
        .where(and(eq(attachmentRequests.id, options.requestId), eq(attachmentRequests.packageId, signing.id)))
    : [];
  if (!request) throw NotFound("That attachment request is not on this package.");
  if (signing.status !== "draft" && !isOpenSigningStatus(signing.status)) {
    throw Conflict(`This package is ${signingStatusLabel(signing.status)}; what its signers are asked for can no longer change.`, "package_closed");
  }
  const [sent] = await tx.select({ n: count() }).from(signerAttachments).where(eq(signerAttachments.requestId, request.id));
  return { signing, request, files: sent?.n ?? 0 };
}

/**
 * A manager makes a request required or optional on a draft or open package: the closing team stops
 * waiting for a document the borrower cannot provide (or starts insisting on one). The files already
 * sent stay, as evidence, and the signer still sees the request. Making it optional may complete the
 * package when it was the last thing missing. Audited (`attachment.request_changed`).
 */
export async function setAttachmentRequestRequired(
  db: Db,
  options: RequestChangeOptions & { required: unknown },
): Promise<{ request: AttachmentRequest; signing: SigningPackage }> {
  if (typeof options.required !== "boolean") throw BadRequest("required: expected true or false.");
  const required = options.required;
  return db.transaction(async (tx) => {
    const { signing, request } = await lockRequest(tx, options);
    if (request.required === required) return { request, signing };
    const [updated] = await tx.update(attachmentRequests).set({ required }).where(eq(attachmentRequests.id, request.id)).returning();
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "attachment.request_changed",
      entityType: "attachment_request",
      entityId: request.id,
      ipAddress: options.ipAddress,
      before: { signerId: request.signerId, name: request.name, required: request.required },
      after: { signerId: request.signerId, name: request.name, required },
    });
    const result = await completePackageIfDone(tx, signing, { actorUserId: options.principal.user.id, ipAddress: options.ipAddress });
    return { request: updated!, signing: result.signing };
  });
}

/**
 * A manager withdraws a request nothing was sent for yet, on a draft or open package: the signer no
 * longer sees it, and the package no longer waits for it (it may complete now). A request with files
 * keeps them as evidence: 409, make it optional instead. Audited (`attachment.request_removed`).
 */
export async function withdrawAttachmentRequest(db: Db, options: RequestChangeOptions): Promise<{ signing: SigningPackage }> {
  return db.transaction(async (tx) => {
    const { signing, request, files } = await lockRequest(tx, options);
    if (files > 0) {
      throw Conflict(
        `${request.name}: the signer already sent ${files === 1 ? "a file" : `${files} files`}, which stay with the package; make the request optional instead of withdrawing it.`,
      );
    }
    await tx.delete(attachmentRequests).where(eq(attachmentRequests.id, request.id));
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "attachment.request_removed",
      entityType: "attachment_request",
      entityId: request.id,
      ipAddress: options.ipAddress,
      before: { signerId: request.signerId, name: request.name, required: request.required },
    });
    return completePackageIfDone(tx, signing, { actorUserId: options.principal.user.id, ipAddress: options.ipAddress });
  });
}
