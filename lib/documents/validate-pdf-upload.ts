import { AppError, BadRequest } from "@/lib/errors";
import { inspectPdf } from "./pdf";

/** Largest PDF accepted by an upload. The /v1 body limit for upload routes allows this plus form overhead. */
export const MAX_PDF_BYTES = 10 * 1024 * 1024;

export type ValidatedPdf = { bytes: Uint8Array; name: string; pageCount: number; sha256: string; sizeBytes: number };

/** 413 over the size cap, 400 unless the bytes load as a PDF with at least one page. */
export async function validatePdfUpload(upload: { bytes: Uint8Array; name: string }): Promise<ValidatedPdf> {
  if (upload.bytes.byteLength > MAX_PDF_BYTES) {
    throw new AppError("payload_too_large", `The PDF exceeds the ${MAX_PDF_BYTES / 1024 / 1024} MiB limit.`);
  }
  if (upload.bytes.byteLength === 0) throw BadRequest("The uploaded file is empty.");
  let info: Awaited<ReturnType<typeof inspectPdf>>;
  try {
    info = await inspectPdf(upload.bytes);
  } catch {
    throw BadRequest("The uploaded file is not a readable PDF.");
  }
  if (info.pageCount < 1) throw BadRequest("The uploaded PDF has no pages.");
  const name = upload.name.trim().slice(0, 200) || "Document.pdf";
  return { bytes: upload.bytes, name, ...info };
}
