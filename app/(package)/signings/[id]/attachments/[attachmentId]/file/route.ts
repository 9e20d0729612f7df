// GET /signings/:id/attachments/:attachmentId/file – a signer's attachment (a PDF) for the package's signed-in manager, or for the signer who sent it (`?download=1` for an attachment).
import { z } from "zod";
import { requestPrincipal } from "@/lib/next/request-principal";
import { getAttachmentFile } from "@/lib/attachments/list-attachments";
import { prepareDatabase } from "@/lib/boot";
import { AppError, BadRequest, errorJsonResponse, Unauthorized } from "@/lib/errors";
import { fileResponse } from "@/app/_lib/file-response";

export const dynamic = "force-dynamic";

const QuerySchema = z.object({ download: z.enum(["0", "1"]).optional() });

type Params = { params: Promise<{ id: string; attachmentId: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  try {
    const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw BadRequest("Query parameter download must be 0 or 1.");
    const { db } = await prepareDatabase();
    const { id, attachmentId } = await params;
    const principal = await requestPrincipal(db, { request, link: { kind: "signer", packageId: id } });
    if (!principal) throw Unauthorized("Sign in to view this attachment.");
    // The signer who sent it, else a manager of the package.
    const file = await getAttachmentFile(db, { principal, packageId: id, attachmentId, as: "signer" }).catch((error: unknown) => {
      if (error instanceof AppError && (error.code === "not_found" || error.code === "forbidden") && !principal.signerSession) {
        return getAttachmentFile(db, { principal, packageId: id, attachmentId, as: "manager" });
      }
      throw error;
    });
    return await fileResponse(request, file, query.data.download === "1" ? "attachment" : "inline");
  } catch (error) {
    return errorJsonResponse(error);
  }
}
