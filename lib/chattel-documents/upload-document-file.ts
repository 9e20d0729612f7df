import type { Db } from "@/db/client";
import { chattelDocumentFiles, type ChattelDocumentFile } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { inspectPdfInWorker } from "@/lib/pdf/inspect-pdf-in-worker";
import { MAX_PDF_BYTES } from "@/lib/pdf/validate-pdf-upload";
import { AppError, BadRequest } from "@/lib/errors";
import { uuidv7 } from "@/db/uuidv7";
import { putStoredFile } from "@/lib/storage/stored-files";
import { getChattelDocumentOrThrow } from "./get-chattel-document-or-throw";
import { serializeDocumentFile } from "./serialize-document-file";
import { sniffFileType } from "./sniff-file-type";

export type UploadDocumentFileOptions = {
  principal: Principal;
  documentId: string;
  fileName: string;
  bytes: Uint8Array;
  ipAddress?: string | null;
};

/** Cleans a client file name for storage and Content-Disposition: no path, no control characters. */
function cleanFileName(name: string, extension: string): string {
  const base = name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f"]/g, "").trim().slice(0, 200);
  return base || `file.${extension}`;
}

/**
 * Stores a PDF, PNG or JPEG for a document (type from the magic bytes; 413 over the upload cap) with
 * its SHA-256, as the object of that hash (the same bytes uploaded twice are one object), in the
 * row's transaction: on the embedded default the object commits or rolls back with the row.
 */
export async function uploadDocumentFile(db: Db, options: UploadDocumentFileOptions): Promise<ChattelDocumentFile> {
  const { principal, bytes } = options;
  requireCapability(principal, "documents:write", "You do not have permission to upload document files.");
  const document = await getChattelDocumentOrThrow(db, { principal, documentId: options.documentId, capability: "documents:write" });
  // The /v1 upload body limit (lib/api/app.ts) allows this cap plus multipart framing.
  if (bytes.byteLength > MAX_PDF_BYTES) {
    throw new AppError("payload_too_large", `The file is ${bytes.byteLength} bytes; the limit is ${MAX_PDF_BYTES / 1024 / 1024} MiB (${MAX_PDF_BYTES} bytes).`);
  }
  if (bytes.byteLength === 0) throw BadRequest("The uploaded file is empty.");
  const type = sniffFileType(bytes);
  if (!type) throw BadRequest("Only PDF, PNG and JPEG files are accepted.");
  // Stored as uploaded and opened by viewers later: a PDF whose streams inflate past the bound is refused now.
  if (type.extension === "pdf") await inspectPdfInWorker(bytes, { loadDocument: false });

  const id = uuidv7();
  return db.transaction(async (tx) => {
    // Re-checked inside the transaction: the document may have been deleted during the upload.
    await getChattelDocumentOrThrow(tx, { principal, documentId: document.id, capability: "documents:write", lock: true });
    const stored = await putStoredFile(tx, { bytes, contentType: type.contentType });
    const [file] = await tx
      .insert(chattelDocumentFiles)
      .values({
        id,
        chattelDocumentId: document.id,
        fileName: cleanFileName(options.fileName, type.extension),
        contentType: type.contentType,
        ...stored,
        uploadedByUserId: principal.user.id,
      })
      .returning();
    await recordAuditEntry(tx, {
      organizationId: document.organizationId,
      actorUserId: principal.user.id,
      action: "document.file_uploaded",
      entityType: "chattel_document_file",
      entityId: id,
      ipAddress: options.ipAddress,
      after: serializeDocumentFile(file!),
    });
    return file!;
  });
}
