// GET /signings/:id/closing/table-packet – the table packet PDF for a signed-in manager of the package.
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { contentDisposition } from "@/lib/api/content-disposition";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to download the table packet.");
    const packet = await getTablePacket(db, { principal, packageId: (await params).id });
    return new Response(Buffer.from(packet.content), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": contentDisposition("attachment", packet.filename),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
