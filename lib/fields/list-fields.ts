import type { Db } from "@/db/client";
import { documentFields } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getOwnedDocumentOrThrow, loadDocumentOwner, requireOwnerCapability, type OwnedDocumentRef } from "@/lib/document-owners/document-owner";
import { FIELD_ORDER } from "./field-order";
import { fieldsOfDocument } from "./fields-of-document";

/**
 * The fields placed on one document of a package (per signer) or of a template (per role), in
 * reading order, as rows: `serializeField[owner]` gives the `/v1` shape. 404 for an owner out of
 * the caller's scope or a document that is not the owner's.
 */
export async function listFields(db: Db, options: OwnedDocumentRef & { principal: Principal }) {
  requireOwnerCapability(options.principal, options.owner, "read");
  const owner = await loadDocumentOwner(db, { ...options, access: "read" });
  const document = await getOwnedDocumentOrThrow(db, owner, options.documentId);
  return db.select().from(documentFields).where(fieldsOfDocument(owner.owner, document.id)).orderBy(...FIELD_ORDER);
}
