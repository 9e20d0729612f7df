import type { Db } from "@/db/client";
import { readObject } from "@/lib/storage/objects";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSignerAssignmentOrThrow } from "./get-signer-assignment-or-throw";
import { getDocumentOrThrow } from "./get-document-or-throw";

export type GetAssignedDocumentFileOptions = { principal: Principal; packageId: string; documentId: string };

export type DocumentFile = { name: string; contentType: string; sha256: string; content: Uint8Array };

/** The bytes of a document in a package assigned to the caller. */
export async function getAssignedDocumentFile(db: Db, options: GetAssignedDocumentFileOptions): Promise<DocumentFile> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const { signing } = await getSignerAssignmentOrThrow(db, options);
  const document = await getDocumentOrThrow(db, { packageId: signing.id, documentId: options.documentId }, (t) => ({ name: t.name, contentType: t.contentType, sha256: t.sha256, storageKey: t.storageKey }));
  return { name: document.name, contentType: document.contentType, sha256: document.sha256, content: await readObject(db, document.storageKey) };
}
