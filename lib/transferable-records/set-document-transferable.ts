import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { assertDraft } from "@/lib/packages/assert-draft";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";

/**
 * Marks a draft's document as a transferable record (or not): once the package completes and is
 * sealed, the sealed PDF becomes the single authoritative copy under the sending organization's
 * control. Only while the package is a draft (409 after); 404 for a document of another package.
 */
export async function setDocumentTransferable(
  db: Db,
  options: { principal: Principal; packageId: string; documentId: string; transferable: boolean; ipAddress?: string | null },
): Promise<{ documentId: string; transferable: boolean }> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change documents.");
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { principal: options.principal, packageId: options.packageId, capability: "signings:write", lock: true });
    assertDraft(signing, "change its documents");
    const document = await getDocumentOrThrow(tx, { packageId: signing.id, documentId: options.documentId }, (t) => ({ id: t.id, transferable: t.transferable }));
    if (document.transferable !== options.transferable) {
      await tx.update(packageDocuments).set({ transferable: options.transferable }).where(eq(packageDocuments.id, document.id));
      await recordAuditEntry(tx, {
        organizationId: signing.organizationId,
        packageId: signing.id,
        actorUserId: options.principal.user.id,
        action: "document.transferable_changed",
        entityType: "package_document",
        entityId: document.id,
        ipAddress: options.ipAddress,
        before: { transferable: document.transferable },
        after: { transferable: options.transferable },
      });
    }
    return { documentId: document.id, transferable: options.transferable };
  });
}
