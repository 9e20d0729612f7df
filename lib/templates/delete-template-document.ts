import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { templateDocuments } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { serializeDocumentMetadata } from "@/lib/documents/serialize-document-metadata";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
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
    const notFound = NotFound(`Document ${options.documentId} not found.`);
    if (!isUuid(options.documentId)) throw notFound;
    const [removed] = await tx
      .delete(templateDocuments)
      .where(and(eq(templateDocuments.id, options.documentId), eq(templateDocuments.templateId, template.id)))
      .returning(templateDocumentMetadataColumns);
    if (!removed) throw notFound;
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
