import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { templateDocuments, type ExecutionMode } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { preparePdfDocument } from "@/lib/uploads/prepare-pdf-document";
import { serializeDocumentMetadata } from "@/lib/pdf/serialize-document-metadata";
import { pdfSourceOf, type PdfSource } from "@/lib/uploads/uploaded-pdf-document";
import { verifyUploadSources } from "@/lib/uploads/verify-upload-sources";
import { getTemplateOrThrow } from "./get-template-or-throw";

/** Adds a PDF (inline bytes or a direct upload) to a template, validated and stored like a package document, with the execution mode packages start from (default esign). */
export async function addTemplateDocument(
  db: Db,
  options: { principal: Principal; templateId: string; executionMode?: ExecutionMode; ipAddress?: string | null } & PdfSource,
) {
  requireCapability(options.principal, "templates:write", "You do not have permission to change templates.");
  const source = pdfSourceOf(options);
  await verifyUploadSources(db, { principal: options.principal, sources: [source] });
  return db.transaction(async (tx) => {
    const template = await getTemplateOrThrow(tx, {
      ...options,
      capability: "templates:write",
      forbiddenMessage: "Changing a template needs an organization-level role.",
      lock: true,
    });
    const document = await preparePdfDocument(tx, {
      source,
      principal: options.principal,
      table: templateDocuments,
      siblings: eq(templateDocuments.templateId, template.id),
    });
    const [created] = await tx
      .insert(templateDocuments)
      .values({ templateId: template.id, ...document, executionMode: options.executionMode ?? "esign" })
      .returning();
    const metadata = { ...serializeDocumentMetadata(created!), executionMode: created!.executionMode };
    await recordAuditEntry(tx, {
      organizationId: template.organizationId,
      actorUserId: options.principal.user.id,
      action: "template.document_added",
      entityType: "template_document",
      entityId: created!.id,
      ipAddress: options.ipAddress,
      after: metadata,
    });
    return metadata;
  });
}
