import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { packageDocuments, templateDocuments } from "@/db/schema";
import { putObject } from "@/lib/storage/objects";
import { validatePdfUpload } from "./validate-pdf-upload";

/**
 * Validates an uploaded PDF and returns the columns a package or template document row shares: the
 * cleaned name, the stored object's key with its size, SHA-256 (what signers attest to) and page count, and the
 * position after the parent's existing documents. The caller inserts it with its parent key, in the
 * transaction that locked the parent, so two uploads cannot take the same position.
 */
export async function preparePdfDocument(
  db: Db,
  options: { bytes: Uint8Array; name: string; table: typeof packageDocuments | typeof templateDocuments; siblings: SQL },
) {
  const pdf = await validatePdfUpload(options);
  const [position] = await db
    .select({ next: sql<number>`coalesce(max(${options.table.position}) + 1, 0)::int` })
    .from(options.table)
    .where(options.siblings);
  const stored = await putObject(db, { bytes: pdf.bytes, contentType: "application/pdf" });
  return {
    name: pdf.name,
    storageKey: stored.storageKey,
    sizeBytes: pdf.sizeBytes,
    sha256: pdf.sha256,
    pageCount: pdf.pageCount,
    position: position?.next ?? 0,
  };
}
