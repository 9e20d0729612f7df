import { AppError, BadRequest } from "@/lib/errors";
import { inspectPdfInWorker } from "./inspect-pdf-in-worker";
import { sha256Hex } from "./pdf";

/** Largest PDF accepted by an upload. The /v1 body limit for upload routes allows this plus form overhead. */
export const MAX_PDF_BYTES = 10 * 1024 * 1024;

export type ValidatedPdf = { bytes: Uint8Array; name: string; pageCount: number; sha256: string; sizeBytes: number };

/**
 * 413 over the size cap or when its streams inflate past the bound, 400 unless the bytes load as a
 * PDF with at least one page. The parse runs in a worker (`inspectPdfInWorker`), never on the request thread.
 */
export async function validatePdfUpload(upload: { bytes: Uint8Array; name: string }): Promise<ValidatedPdf> {
  if (upload.bytes.byteLength > MAX_PDF_BYTES) {
    throw new AppError("payload_too_large", `The PDF exceeds the ${MAX_PDF_BYTES / 1024 / 1024} MiB limit.`);
  }
  if (upload.bytes.byteLength === 0) throw BadRequest("The uploaded file is empty.");
  if (Buffer.from(upload.bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") throw BadRequest("The uploaded file is not a readable PDF.");
  const { pageCount } = await inspectPdfInWorker(upload.bytes, { loadDocument: true });
  if (!pageCount || pageCount < 1) throw BadRequest("The uploaded PDF has no pages.");
  const name = upload.name.trim().slice(0, 200) || "Document.pdf";
  return { bytes: upload.bytes, name, pageCount, sha256: sha256Hex(upload.bytes), sizeBytes: upload.bytes.byteLength };
}
