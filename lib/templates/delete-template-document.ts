import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { templateDocuments } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { serializeDocumentMetadata } from "@/lib/pdf/serialize-document-metadata";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { templateDocumentMetadataColumns } from "./template-document-metadata-columns";

/** Removes a document from a template; packages created from the template keep their copies. */
export async function deleteTemplateDocument(
  db: Db,
  options: { principal: Principal; templateId: string; documentId: string; ipAddress?: string | null },
): Promise<void> {
  requireCapability(options.principal, "templates:write", "You do not have permission to change templates.");
  await db.transaction(async (tx) => {
    const template = await getTemplateOrThrow(tx, {
      ...options,
      capability: "templates:write",
      forbiddenMessage: "Changing a template needs an organization-level role.",
      lock: true,
    });
    const removed = await getDocumentOrThrow(tx, { templateId: template.id, documentId: options.documentId }, () => templateDocumentMetadataColumns);
    await tx.delete(templateDocuments).where(eq(templateDocuments.id, removed.id));
    await recordAuditEntry(tx, {
      organizationId: template.organizationId,
      actorUserId: options.principal.user.id,
      action: "template.document_removed",
      entityType: "template_document",
      entityId: removed.id,
      ipAddress: options.ipAddress,
      before: serializeDocumentMetadata(removed),
    });
  });
}
