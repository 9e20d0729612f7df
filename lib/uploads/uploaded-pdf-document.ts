import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { BadRequest, Conflict } from "@/lib/errors";
import { getUploadOrThrow } from "./verify-upload";

/** A document's file: its bytes inline (small files), or a direct upload by id (any size up to the limit). */
export type PdfSource = { bytes: Uint8Array; name: string } | { uploadId: string; name?: string };

/** The source named by an options object that also carries other fields. */
export function pdfSourceOf(options: PdfSource): PdfSource {
  return "uploadId" in options && options.uploadId !== undefined ? { uploadId: options.uploadId, name: options.name } : { bytes: (options as { bytes: Uint8Array }).bytes, name: options.name! };
}

/** What a document row keeps of a verified upload. */
export type UploadedPdf = { name: string; storageKey: string; sizeBytes: number; sha256: string; pageCount: number };

/**
 * The caller's verified upload as a document's file, read with its row locked in the attaching
 * transaction: the upload sweep cannot delete it (and its object) while the document that refers to
 * it is being written. The object is attached by its content key; nothing is copied.
 */
export async function uploadedPdfDocument(tx: Db, options: { principal: Principal; uploadId: string; name?: string }): Promise<UploadedPdf> {
  const upload = await getUploadOrThrow(tx, { principal: options.principal, uploadId: options.uploadId, lock: true });
  if (upload.contentType !== "application/pdf") throw BadRequest(`Upload ${upload.id} is ${upload.contentType}; a document here must be a PDF.`);
  if (!upload.verifiedAt || upload.pageCount === null) {
    throw Conflict(`Upload ${upload.id} has not been verified: PUT the file, then POST /v1/uploads/${upload.id}/complete.`);
  }
  return {
    name: options.name?.trim().slice(0, 200) || upload.name || "Document.pdf",
    storageKey: upload.storageKey,
    sizeBytes: upload.sizeBytes,
    sha256: upload.sha256,
    pageCount: upload.pageCount,
  };
}
