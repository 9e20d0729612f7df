import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import type { PdfSource } from "./uploaded-pdf-document";
import { verifyUpload } from "./verify-upload";

/**
 * Verifies the direct uploads among a request's document sources, before the attaching transaction
 * opens (reading and checking a large file must not hold the parent's row lock). Already verified
 * ones cost a read of their row.
 */
export async function verifyUploadSources(db: Db, options: { principal: Principal; sources: readonly PdfSource[] }): Promise<void> {
  for (const source of options.sources) {
    if ("uploadId" in source) await verifyUpload(db, { principal: options.principal, uploadId: source.uploadId });
  }
}
