import type { Db } from "@/db/client";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { getDocumentOrThrow } from "@/lib/signings/get-document-or-throw";

/** The stored bytes of one template document. */
export async function getTemplateDocumentFile(db: Db, options: { principal: Principal; templateId: string; documentId: string }) {
  requireCapability(options.principal, "templates:read", "You do not have permission to read templates.");
  const template = await getTemplateOrThrow(db, { ...options, capability: "templates:read" });
  const document = await getDocumentOrThrow(db, { templateId: template.id, documentId: options.documentId }, (t) => ({ name: t.name, content: t.content, sha256: t.sha256 }));
  return document;
}
