// GET /agent/closing/:id/table-packet – the table packet PDF for the settlement agent session of the package.
import { prepareDatabase } from "@/lib/boot";
import { pdfAttachmentResponse } from "@/app/_lib/pdf-attachment-response";
import { clientIpFromRequest } from "@/lib/net/client-ip";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";
import { downloadAgentTablePacket } from "@/lib/settlement-agent/download-agent-table-packet";
import { provenLinkHolder } from "@/lib/next/link-sessions";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await params;
    const { db } = await prepareDatabase();
    const principal = await provenLinkHolder(db, "agent", id, request);
    if (!principal) throw Unauthorized("This session has ended. Ask the closing team for a new link.");
    const packet = await downloadAgentTablePacket(db, { principal, packageId: id, ipAddress: clientIpFromRequest(request.headers) });
    return pdfAttachmentResponse(packet);
  } catch (error) {
    return errorJsonResponse(error);
  }
}
