import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { packageDocuments, templateDocuments } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { putObject } from "@/lib/storage/objects";
import { uploadedPdfDocument, type PdfSource } from "@/lib/uploads/uploaded-pdf-document";
import { validatePdfUpload } from "@/lib/pdf/validate-pdf-upload";

/**
 * Validates an uploaded PDF and returns the columns a package or template document row shares: the
 * cleaned name, the stored object's key with its size, SHA-256 (what signers attest to) and page count, and the
 * position after the parent's existing documents. The caller inserts it with its parent key, in the
 * transaction that locked the parent, so two uploads cannot take the same position. A direct upload
 * (`uploadId`) must have been verified (`verifyUpload`, before the transaction): its object is
 * attached by key, neither read nor stored again.
 */
export async function preparePdfDocument(
  db: Db,
  options: { source: PdfSource; principal: Principal; table: typeof packageDocuments | typeof templateDocuments; siblings: SQL },
) {
  const { source } = options;
  let file: { name: string; storageKey: string; sizeBytes: number; sha256: string; pageCount: number };
  if ("uploadId" in source) {
    file = await uploadedPdfDocument(db, { principal: options.principal, uploadId: source.uploadId, name: source.name });
  } else {
    const pdf = await validatePdfUpload(source);
    const stored = await putObject(db, { bytes: pdf.bytes, contentType: "application/pdf" });
    file = { name: pdf.name, storageKey: stored.storageKey, sizeBytes: pdf.sizeBytes, sha256: pdf.sha256, pageCount: pdf.pageCount };
  }
  const [position] = await db
    .select({ next: sql<number>`coalesce(max(${options.table.position}) + 1, 0)::int` })
    .from(options.table)
    .where(options.siblings);
  return { ...file, position: position?.next ?? 0 };
}
