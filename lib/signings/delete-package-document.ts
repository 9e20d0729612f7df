import { eq, getTableColumns } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { serializeDocumentMetadata } from "@/lib/pdf/serialize-document-metadata";
import { assertDraft } from "@/lib/packages/assert-draft";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";

/** Detaches a document from a draft. */
export async function deletePackageDocument(
  db: Db,
  options: { principal: Principal; packageId: string; documentId: string; ipAddress?: string | null },
): Promise<void> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change documents.");
  await db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    const { storageKey: _storageKey, ...metadataColumns } = getTableColumns(packageDocuments);
    const document = await getDocumentOrThrow(tx, { packageId: signing.id, documentId: options.documentId }, () => metadataColumns);
    assertDraft(signing, "change its documents");
    await tx.delete(packageDocuments).where(eq(packageDocuments.id, document.id));
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "document.removed",
      entityType: "package_document",
      entityId: document.id,
      ipAddress: options.ipAddress,
      before: serializeDocumentMetadata(document),
    });
  });
}
