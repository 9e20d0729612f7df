import { AppError, BadRequest } from "@/lib/errors";
import { inspectPdfInWorker } from "./inspect-pdf-in-worker";
import { sha256Hex } from "./pdf";

/**
 * Largest PDF accepted inline (a request body: raw, multipart or base64). The /v1 body limit for
 * upload routes allows this plus form overhead. Larger files go through a direct upload (`/v1/uploads`).
 */
export const MAX_PDF_BYTES = 10 * 1024 * 1024;
/** Largest PDF a direct upload (`/v1/uploads`) accepts. */
export const MAX_UPLOADED_PDF_BYTES = 100 * 1024 * 1024;
/** Most pages a package or template document may have. */
export const MAX_DOCUMENT_PAGES = 500;
/** A direct upload's PDF may be ten times an inline one's, so its parse gets longer. */
const UPLOADED_PDF_PARSE_TIMEOUT_MS = 30_000;

export type ValidatedPdf = { bytes: Uint8Array; name: string; pageCount: number; sha256: string; sizeBytes: number };

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

/** The 413 for a PDF over a size limit, naming the limit and the size. */
export function pdfTooLarge(sizeBytes: number, limitBytes: number, how: string) {
  return new AppError("payload_too_large", `The PDF is ${sizeBytes} bytes; the limit ${how} is ${mib(limitBytes)} (${limitBytes} bytes).`);
}

/**
 * 413 over the size cap or when its streams inflate past the bound, 400 unless the bytes load as a
 * PDF with 1 to 500 pages that is not encrypted. The parse runs in a worker (`inspectPdfInWorker`),
 * never on the request thread. `direct` raises the size cap to a direct upload's.
 */
export async function validatePdfUpload(upload: { bytes: Uint8Array; name: string; direct?: boolean }): Promise<ValidatedPdf> {
  const limit = upload.direct ? MAX_UPLOADED_PDF_BYTES : MAX_PDF_BYTES;
  if (upload.bytes.byteLength > limit) {
    throw pdfTooLarge(upload.bytes.byteLength, limit, upload.direct ? "for an uploaded PDF" : "inline (larger files go through POST /v1/uploads)");
  }
  if (upload.bytes.byteLength === 0) throw BadRequest("The uploaded file is empty.");
  if (Buffer.from(upload.bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") throw BadRequest("The uploaded file is not a readable PDF.");
  const { pageCount } = await inspectPdfInWorker(upload.bytes, { loadDocument: true, ...(upload.direct ? { timeoutMs: UPLOADED_PDF_PARSE_TIMEOUT_MS } : {}) });
  if (!pageCount || pageCount < 1) throw BadRequest("The uploaded PDF has no pages.");
  if (pageCount > MAX_DOCUMENT_PAGES) {
    throw BadRequest(`The PDF has ${pageCount} pages; a document may have at most ${MAX_DOCUMENT_PAGES}.`);
  }
  const name = upload.name.trim().slice(0, 200) || "Document.pdf";
  return { bytes: upload.bytes, name, pageCount, sha256: sha256Hex(upload.bytes), sizeBytes: upload.bytes.byteLength };
}
