import type { Db } from "@/db/client";
import { objectDownload, type StoredDownload } from "@/lib/storage/objects";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";

export type GetAssignedDocumentFileOptions = { principal: Principal; packageId: string; documentId: string };

/** A document's file for download: its name, type and hash, and its object in storage (streamed or presigned, never read whole here). */
export type DocumentFile = StoredDownload;

/** The file of a document in a package assigned to the caller (404 otherwise, before anything is read). */
export async function getAssignedDocumentFile(db: Db, options: GetAssignedDocumentFileOptions): Promise<DocumentFile> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const { signing } = await getSignerAssignmentOrThrow(db, options);
  const document = await getDocumentOrThrow(db, { packageId: signing.id, documentId: options.documentId }, (t) => ({ name: t.name, contentType: t.contentType, sha256: t.sha256, storageKey: t.storageKey }));
  return objectDownload(db, { fileName: document.name, contentType: document.contentType, sha256: document.sha256, storageKey: document.storageKey });
}
