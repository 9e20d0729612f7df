import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields, templateDocuments } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";
import { FIELD_ORDER } from "./field-order";
import { serializeTemplateField } from "./serialize-template-field";

/** The fields placed on one document of a template, per role, in reading order. */
export async function listTemplateDocumentFields(db: Db, options: { principal: Principal; templateId: string; documentId: string }) {
  requireCapability(options.principal, "templates:read", "You do not have permission to read templates.");
  const template = await getTemplateOrThrow(db, { ...options, capability: "templates:read" });
  const notFound = NotFound(`Document ${options.documentId.slice(0, 64)} not found.`);
  if (!isUuid(options.documentId)) throw notFound;
  const [document] = await db
    .select({ id: templateDocuments.id })
    .from(templateDocuments)
    .where(and(eq(templateDocuments.id, options.documentId), eq(templateDocuments.templateId, template.id)))
    .limit(1);
  if (!document) throw notFound;
  const rows = await db.select().from(documentFields).where(eq(documentFields.templateDocumentId, document.id)).orderBy(...FIELD_ORDER);
  return { data: rows.map(serializeTemplateField) };
}
