// GET /signings/:id/fields/:docId/file – a package document's PDF for the field editor (a manager's session; the package in their scope).
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";
import { getPackageDocumentFile } from "@/lib/signings/get-package-document-file";
import { fileResponse } from "../../../../../../_lib/file-response";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string; docId: string }> }): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to view this document.");
    const { id, docId } = await params;
    return fileResponse(request, await getPackageDocumentFile(db, { principal, packageId: id, documentId: docId }));
  } catch (error) {
    return errorJsonResponse(error);
  }
}
