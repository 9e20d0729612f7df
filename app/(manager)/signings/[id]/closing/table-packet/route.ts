// GET /signings/:id/closing/table-packet – the table packet PDF for a signed-in manager of the package.
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { pdfAttachmentResponse } from "@/app/_lib/pdf-attachment-response";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to download the table packet.");
    const packet = await getTablePacket(db, { principal, packageId: (await params).id });
    return pdfAttachmentResponse(packet);
  } catch (error) {
    return errorJsonResponse(error);
  }
}
