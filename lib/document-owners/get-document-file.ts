import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { getOwnedDocumentOrThrow, loadDocumentOwner, requireOwnerCapability, type OwnedDocumentRef } from "./document-owner";

/** The stored bytes of one document of a package the caller manages or of a template they read; 404 out of scope. */
export async function getDocumentFile(db: Db, options: OwnedDocumentRef & { principal: Principal }) {
  requireOwnerCapability(options.principal, options.owner, "read");
  const owner = await loadDocumentOwner(db, { ...options, access: "read" });
  return getOwnedDocumentOrThrow(db, owner, options.documentId, { content: true });
}
