import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, type ExecutionMode } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { preparePdfDocument } from "@/lib/documents/prepare-pdf-document";
import { serializeDocumentMetadata } from "@/lib/documents/serialize-document-metadata";
import { assertDraft } from "./assert-draft";
import { getSigningOrThrow } from "./get-signing-or-throw";

/**
 * Attaches an uploaded PDF to a draft: checked to be a real PDF within the size cap, stored with its
 * SHA-256 (what signers attest to) and page count, appended after the existing documents, executed
 * as `executionMode` (default esign).
 */
export async function addPackageDocument(
  db: Db,
  options: { principal: Principal; packageId: string; bytes: Uint8Array; name: string; executionMode?: ExecutionMode; ipAddress?: string | null },
) {
  requireCapability(options.principal, "signings:write", "You do not have permission to change documents.");
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertDraft(signing, "change its documents");
    const document = await preparePdfDocument(tx, {
      bytes: options.bytes,
      name: options.name,
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
