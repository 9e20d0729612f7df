import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { templateDocuments } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";

/**
 * Marks a template's document as a transferable record (or not): every package created from the
 * template afterwards, by the package form, `/v1` or a bulk CSV send, starts with its copy marked.
 */
export async function setTemplateDocumentTransferable(
  db: Db,
  options: { principal: Principal; templateId: string; documentId: string; transferable: boolean; ipAddress?: string | null },
): Promise<{ documentId: string; transferable: boolean }> {
  requireCapability(options.principal, "templates:write", "You do not have permission to change templates.");
  return db.transaction(async (tx) => {
    const template = await getTemplateOrThrow(tx, {
      ...options,
      capability: "templates:write",
      forbiddenMessage: "Changing a template needs an organization-level role.",
      lock: true,
    });
    const document = await getDocumentOrThrow(tx, { templateId: template.id, documentId: options.documentId }, (t) => ({ id: t.id, transferable: t.transferable }));
    if (document.transferable !== options.transferable) {
      await tx.update(templateDocuments).set({ transferable: options.transferable }).where(eq(templateDocuments.id, document.id));
      await recordAuditEntry(tx, {
        organizationId: template.organizationId,
        actorUserId: options.principal.user.id,
        action: "template.document_transferable_changed",
        entityType: "template_document",
        entityId: document.id,
        ipAddress: options.ipAddress,
        before: { transferable: document.transferable },
        after: { transferable: options.transferable },
      });
    }
    return { documentId: document.id, transferable: options.transferable };
  });
}
