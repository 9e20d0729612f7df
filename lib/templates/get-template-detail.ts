import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { templateDocuments } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { serializeDocumentMetadata } from "@/lib/pdf/serialize-document-metadata";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { serializeTemplate } from "./serialize-template";
import { templateDocumentMetadataColumns } from "./template-document-metadata-columns";

/** A template with its roles and its documents' metadata (each with the execution mode packages start from). */
export async function getTemplateDetail(db: Db, options: { principal: Principal; templateId: string }) {
  requireCapability(options.principal, "templates:read", "You do not have permission to read templates.");
  const template = await getTemplateOrThrow(db, { ...options, capability: "templates:read" });
  const documents = await db
    .select(templateDocumentMetadataColumns)
    .from(templateDocuments)
    .where(eq(templateDocuments.templateId, template.id))
    .orderBy(asc(templateDocuments.position), asc(templateDocuments.id));
  return { ...serializeTemplate(template), documents: documents.map((d) => ({ ...serializeDocumentMetadata(d), executionMode: d.executionMode, transferable: d.transferable })) };
}
