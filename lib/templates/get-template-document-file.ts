import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { templateDocuments } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getTemplateOrThrow } from "./get-template-or-throw";

/** The stored bytes of one template document. */
export async function getTemplateDocumentFile(db: Db, options: { principal: Principal; templateId: string; documentId: string }) {
  requireCapability(options.principal, "templates:read", "You do not have permission to read templates.");
  const template = await getTemplateOrThrow(db, { ...options, capability: "templates:read" });
  const notFound = NotFound(`Document ${options.documentId} not found.`);
  if (!isUuid(options.documentId)) throw notFound;
  const [document] = await db
    .select({ name: templateDocuments.name, content: templateDocuments.content, sha256: templateDocuments.sha256 })
    .from(templateDocuments)
    .where(and(eq(templateDocuments.id, options.documentId), eq(templateDocuments.templateId, template.id)))
    .limit(1);
  if (!document) throw notFound;
  return document;
}
