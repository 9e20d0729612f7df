// GET /signings/:id/closing/scans/:docId – an ink document's uploaded scan (PDF) for the manager reviewing it.
import { fileResponse } from "@/app/_lib/file-response";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { getDocumentScanFile } from "@/lib/closings/closing-detail";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string; docId: string }> }): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to view this document.");
    const { id, docId } = await params;
    return await fileResponse(request, await getDocumentScanFile(db, { principal, packageId: id, documentId: docId }));
  } catch (error) {
    return errorJsonResponse(error);
  }
}
