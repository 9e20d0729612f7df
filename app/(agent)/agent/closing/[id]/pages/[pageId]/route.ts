// GET /agent/closing/:id/pages/:pageId – one open scanned page's image, for the settlement agent session of the package.
import { storedFileResponse } from "@/lib/api/stored-file-response";
import { prepareDatabase } from "@/lib/boot";
import { getScanbackPageImage } from "@/lib/closings/scanback";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";
import { provenLinkHolder } from "@/lib/next/link-sessions";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string; pageId: string }> }): Promise<Response> {
  try {
    const { id, pageId } = await params;
    const { db } = await prepareDatabase();
    const principal = await provenLinkHolder(db, "agent", id, request);
    if (!principal) throw Unauthorized("This session has ended. Ask the closing team for a new link.");
    const image = await getScanbackPageImage(db, { principal, packageId: id, pageId });
    return await storedFileResponse(image, { disposition: "inline" });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
