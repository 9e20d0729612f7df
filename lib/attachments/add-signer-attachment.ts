import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { attachmentRequests, signerAttachments, type SignerAttachment } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { AppError, Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { actorUserIdOf } from "@/lib/signer-access/signer-session-principal";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";
import { putObject } from "@/lib/storage/objects";
import { readUploadedFile } from "@/lib/uploads/read-uploaded-file";
import { UPLOAD_CONTENT_TYPES } from "@/lib/uploads/upload-limits";
import { getUploadOrThrow } from "@/lib/uploads/verify-upload";
import { MAX_ATTACHMENT_BYTES, MAX_FILES_PER_REQUEST } from "./limits";
import { prepareAttachmentFile, type PreparedAttachment } from "./prepare-attachment-file";

/** The file a signer adds: its bytes inline (the browser's form, a small `/v1` body) or a verified direct upload by id. */
export type AttachmentSource = { bytes: Uint8Array; name: string } | { uploadId: string; name?: string };

export type AddSignerAttachmentOptions = {
  principal: Principal;
  packageId: string;
  requestId: string;
  file: AttachmentSource;
  ipAddress?: string | null;
};

/**
 * A signer adds one file to one of their requests, on an open package: the file is checked and
 * turned into the kept PDF (`prepareAttachmentFile`: an image upright and without metadata), stored
 * by its SHA-256 like every file, and recorded as `pending` for the manager's review (audited as
 * `attachment.added`, which also emits the webhook event). Bad input is refused before anything is
 * written: 400/413 for the file, 404 for a request that is not the caller's, 409 when the package
 * is closed, the signer declined, the request already has an accepted file, or it has received its
 * 10 files.
 */
export async function addSignerAttachment(db: Db, options: AddSignerAttachmentOptions): Promise<SignerAttachment> {
  requireCapability(options.principal, "signer:esignatures:write", "You do not have permission to add attachments.");
  // Cheap checks first, then the file (outside the transaction: decoding a photo takes a moment).
  await assertCanAdd(db, options, false);
  const raw = "uploadId" in options.file ? await readUploadedAttachment(db, options.principal, options.file) : options.file;
  const prepared: PreparedAttachment = await prepareAttachmentFile(raw);
  return db.transaction(async (tx) => {
    const { signing, signer, request } = await assertCanAdd(tx, options, true);
    const stored = await putObject(tx, { bytes: prepared.pdf, contentType: "application/pdf" });
    const [row] = await tx
      .insert(signerAttachments)
      .values({
        requestId: request.id,
        packageId: signing.id,
        signerId: signer.id,
        fileName: prepared.fileName,
        sourceType: prepared.sourceType,
        storageKey: stored.storageKey,
        sizeBytes: stored.sizeBytes,
        sha256: stored.sha256,
        pageCount: prepared.pageCount,
      })
      .returning();
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: actorUserIdOf(options.principal),
      action: "attachment.added",
      entityType: "signer_attachment",
      entityId: row!.id,
      ipAddress: options.ipAddress,
      after: { signerId: signer.id, requestId: request.id, requestName: request.name, fileName: row!.fileName, sourceType: prepared.sourceType, sha256: stored.sha256, pageCount: prepared.pageCount },
    });
    return row!;
  });
}

async function assertCanAdd(db: Db, options: AddSignerAttachmentOptions, lock: boolean) {
  const { signing, signer } = await getSignerAssignmentOrThrow(db, { principal: options.principal, packageId: options.packageId, lock });
  const [request] = isUuid(options.requestId)
    ? await db
        .select()
        .from(attachmentRequests)
        .where(and(eq(attachmentRequests.id, options.requestId), eq(attachmentRequests.packageId, signing.id), eq(attachmentRequests.signerId, signer.id)))
    : [];
  if (!request) throw NotFound("That attachment was not requested of you on this package.");
  if (!isOpenSigningStatus(signing.status)) {
    throw Conflict(`This package is ${signingStatusLabel(signing.status)}; attachments can no longer be added.`, "package_closed");
  }
  if (signer.status === "declined") throw Conflict("You have declined this package.", "already_declined");
  const files = await db
    .select({ status: signerAttachments.status, n: count() })
    .from(signerAttachments)
    .where(eq(signerAttachments.requestId, request.id))
    .groupBy(signerAttachments.status);
  if (files.some((f) => f.status === "accepted")) throw Conflict(`"${request.name}" has already been accepted; nothing more is needed.`);
  const total = files.reduce((sum, f) => sum + f.n, 0);
  if (total >= MAX_FILES_PER_REQUEST) throw Conflict(`"${request.name}" has received ${MAX_FILES_PER_REQUEST} files, the most one request takes; ask the sender for help.`);
  return { signing, signer, request };
}

/** The caller's direct upload (`POST /v1/uploads`, PUT; verified here if it was not yet): its bytes, read from storage. */
async function readUploadedAttachment(db: Db, principal: Principal, file: { uploadId: string; name?: string }) {
  const upload = await getUploadOrThrow(db, { principal, uploadId: file.uploadId });
  if (upload.sizeBytes > MAX_ATTACHMENT_BYTES) {
    throw new AppError("payload_too_large", `The file is ${upload.sizeBytes} bytes; an attachment may be at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB.`);
  }
  const read = await readUploadedFile(db, { principal, uploadId: file.uploadId, accept: UPLOAD_CONTENT_TYPES, maxBytes: MAX_ATTACHMENT_BYTES });
  return { bytes: read.bytes, name: file.name ?? read.name };
}
