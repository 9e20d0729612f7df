import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { serializeDocumentMetadata } from "@/lib/documents/serialize-document-metadata";
import { validatePdfUpload } from "@/lib/documents/validate-pdf-upload";
import { assertDraft } from "./assert-draft";
import { getSigningOrThrow } from "./get-signing-or-throw";

/**
 * Attaches an uploaded PDF to a draft: checked to be a real PDF within the size cap, stored with its
 * SHA-256 (what signers attest to) and page count, appended after the existing documents.
 */
export async function addPackageDocument(
  db: Db,
  options: { principal: Principal; signingId: string; bytes: Uint8Array; name: string; ipAddress?: string | null },
) {
  requireCapability(options.principal, "signings:write", "You do not have permission to change documents.");
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertDraft(signing, "change its documents");
    const pdf = await validatePdfUpload(options);
    const [position] = await tx
      .select({ next: sql<number>`coalesce(max(${packageDocuments.position}) + 1, 0)::int` })
      .from(packageDocuments)
      .where(eq(packageDocuments.packageId, signing.id));
    const [created] = await tx
      .insert(packageDocuments)
      .values({
        packageId: signing.id,
        name: pdf.name,
        content: pdf.bytes,
        sizeBytes: pdf.sizeBytes,
        sha256: pdf.sha256,
        pageCount: pdf.pageCount,
        position: position?.next ?? 0,
      })
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
      after: metadata,
    });
    return metadata;
  });
}
