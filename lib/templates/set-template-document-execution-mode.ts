import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { templateDocuments, type ExecutionMode } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { executionModeSchema } from "@/lib/closings/closing-detail";
import { serializeDocumentMetadata } from "@/lib/pdf/serialize-document-metadata";
import { BadRequest } from "@/lib/errors";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { templateDocumentMetadataColumns } from "./template-document-metadata-columns";

/**
 * Sets the execution mode a template document starts with in every package created from the
 * template afterwards (packages created earlier keep theirs).
 */
export async function setTemplateDocumentExecutionMode(
  db: Db,
  options: { principal: Principal; templateId: string; documentId: string; executionMode: ExecutionMode; ipAddress?: string | null },
) {
  requireCapability(options.principal, "templates:write", "You do not have permission to change templates.");
  const mode = executionModeSchema.safeParse(options.executionMode);
  if (!mode.success) throw BadRequest(mode.error.issues[0]!.message);
  return db.transaction(async (tx) => {
    const template = await getTemplateOrThrow(tx, {
      ...options,
      capability: "templates:write",
      forbiddenMessage: "Changing a template needs an organization-level role.",
      lock: true,
    });
    const document = await getDocumentOrThrow(tx, { templateId: template.id, documentId: options.documentId }, () => templateDocumentMetadataColumns);
    const after = { ...serializeDocumentMetadata(document), executionMode: mode.data };
    if (document.executionMode === mode.data) return after;
    await tx.update(templateDocuments).set({ executionMode: mode.data }).where(eq(templateDocuments.id, document.id));
    await recordAuditEntry(tx, {
      organizationId: template.organizationId,
      actorUserId: options.principal.user.id,
      action: "template.document_execution_mode_changed",
      entityType: "template_document",
      entityId: document.id,
      ipAddress: options.ipAddress,
      before: { executionMode: document.executionMode },
      after: { executionMode: mode.data },
    });
    return after;
  });
}
