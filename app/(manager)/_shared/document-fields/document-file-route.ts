import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import type { DocumentOwner } from "@/lib/document-owners/document-owner";
import { getDocumentFile } from "@/lib/document-owners/get-document-file";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";
import { fileResponse } from "../../../_lib/file-response";

/**
 * The GET handler of `/signings/<id>/fields/<docId>/file` and `/templates/<id>/fields/<docId>/file`:
 * a package's or a template's document PDF for the field editor, for a signed-in manager whose scope
 * holds the owner (the same `getDocumentFile` as `/v1`; 404 otherwise).
 */
export function documentFileRoute(owner: DocumentOwner) {
  return async function GET(request: Request, { params }: { params: Promise<{ id: string; docId: string }> }): Promise<Response> {
    try {
      const { db } = await prepareDatabase();
      const principal = await getSessionPrincipal(db);
      if (!principal) throw Unauthorized("Sign in to view this document.");
      const { id, docId } = await params;
      return await fileResponse(request, await getDocumentFile(db, { principal, owner, ownerId: id, documentId: docId }));
    } catch (error) {
      return errorJsonResponse(error);
    }
  };
}
