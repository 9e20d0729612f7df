import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";
import { FIELD_ORDER } from "./field-order";
import { getDocumentOrThrow } from "@/lib/signings/get-document-or-throw";

/** The fields placed on one document of a template, per role, in reading order, as rows (`serializeTemplateField` gives the `/v1` shape). */
export async function listTemplateDocumentFields(db: Db, options: { principal: Principal; templateId: string; documentId: string }) {
  requireCapability(options.principal, "templates:read", "You do not have permission to read templates.");
  const template = await getTemplateOrThrow(db, { ...options, capability: "templates:read" });
  const document = await getDocumentOrThrow(db, { templateId: template.id, documentId: options.documentId }, (t) => ({ id: t.id }));
  const rows = await db.select().from(documentFields).where(eq(documentFields.templateDocumentId, document.id)).orderBy(...FIELD_ORDER);
  return rows;
}
