import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { getAssignedDocumentFile, type DocumentFile, type GetAssignedDocumentFileOptions } from "./get-assigned-document-file";
import { getDocumentFile } from "@/lib/document-owners/get-document-file";

/**
 * A document's bytes for the viewer at `/signings/<id>`, which serves the package's signers and its
 * managers alike: the caller's assigned document, else a document of a package the caller reads as
 * a manager (`signings:read` in scope, drafts included). Anyone else gets the signer's 404.
 */
export async function getViewableDocumentFile(db: Db, options: GetAssignedDocumentFileOptions & { principal: Principal }): Promise<DocumentFile> {
  try {
    return await getAssignedDocumentFile(db, options);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "not_found") || !options.principal.capabilities.includes("signings:read")) throw error;
    try {
      return await getDocumentFile(db, { principal: options.principal, owner: "package", ownerId: options.packageId, documentId: options.documentId });
    } catch (managerError) {
      if (managerError instanceof AppError && managerError.code === "not_found") throw error;
      throw managerError;
    }
  }
}
