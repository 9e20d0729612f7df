// GET /signings/:id/closing/pages/:pageId – one open scanned page's image, for the manager assigning it by hand.
import { getScanbackPageImage } from "@/lib/closings/scanback";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { storedFileResponse } from "@/lib/api/stored-file-response";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; pageId: string }> }): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to view scanned pages.");
    const { id, pageId } = await params;
    const image = await getScanbackPageImage(db, { principal, packageId: id, pageId });
    return await storedFileResponse(image, { disposition: "inline" });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
