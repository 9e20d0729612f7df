import { eq } from "drizzle-orm";
import { documentFields } from "@/db/schema";
import type { DocumentOwner } from "@/lib/document-owners/document-owner";

/** The condition selecting the fields of one package document or one template document. */
export function fieldsOfDocument(owner: DocumentOwner, documentId: string) {
  return eq(owner === "package" ? documentFields.documentId : documentFields.templateDocumentId, documentId);
}
