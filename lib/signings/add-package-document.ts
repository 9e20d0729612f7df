import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, type ExecutionMode } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { preparePdfDocument } from "@/lib/uploads/prepare-pdf-document";
import { serializeDocumentMetadata } from "@/lib/pdf/serialize-document-metadata";
import { pdfSourceOf, type PdfSource } from "@/lib/uploads/uploaded-pdf-document";
import { verifyUploadSources } from "@/lib/uploads/verify-upload-sources";
import { assertDraft } from "@/lib/packages/assert-draft";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";

/**
 * Attaches a PDF to a draft, given inline (`bytes`) or as a direct upload (`uploadId`, verified
 * first): checked to be a real PDF within the size and page caps, stored with its SHA-256 (what
 * signers attest to) and page count, appended after the existing documents, executed as
 * `executionMode` (default esign).
 */
export async function addPackageDocument(
  db: Db,
  options: { principal: Principal; packageId: string; executionMode?: ExecutionMode; ipAddress?: string | null } & PdfSource,
) {
  requireCapability(options.principal, "signings:write", "You do not have permission to change documents.");
  const source = pdfSourceOf(options);
  await verifyUploadSources(db, { principal: options.principal, sources: [source] });
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertDraft(signing, "change its documents");
    const document = await preparePdfDocument(tx, {
      source,
      principal: options.principal,
      table: packageDocuments,
      siblings: eq(packageDocuments.packageId, signing.id),
    });
    const [created] = await tx
      .insert(packageDocuments)
      .values({ packageId: signing.id, ...document, executionMode: options.executionMode ?? "esign" })
      .returning();
    const metadata = serializeDocumentMetadata(created!);
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "document.added",
      entityType: "package_document",
      entityId: created!.id,
      ipAddress: options.ipAddress,
      after: { ...metadata, executionMode: created!.executionMode },
    });
    return metadata;
  });
}
