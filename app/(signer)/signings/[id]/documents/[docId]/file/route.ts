// GET /signings/:id/documents/:docId/file – the original PDF of a document in a package assigned to the signed-in signer, or managed by the signed-in manager (the viewer's source; `?download=1` for an attachment).
import { z } from "zod";
import { requestPrincipal } from "@/lib/next/request-principal";
import { prepareDatabase } from "@/lib/boot";
import { BadRequest, errorJsonResponse, Unauthorized } from "@/lib/errors";
import { getViewableDocumentFile } from "@/lib/signings/get-viewable-document-file";
import { fileResponse } from "../../../../../../_lib/file-response";

export const dynamic = "force-dynamic";

const QuerySchema = z.object({ download: z.enum(["0", "1"]).optional() });

type Params = { params: Promise<{ id: string; docId: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  try {
    const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw BadRequest("Query parameter download must be 0 or 1.");
    const { db } = await prepareDatabase();
    const { id, docId } = await params;
    const principal = await requestPrincipal(db, { request, link: { kind: "signer", packageId: id } });
    if (!principal) throw Unauthorized("Sign in to view this document.");
    const file = await getViewableDocumentFile(db, { principal, packageId: id, documentId: docId });
    return await fileResponse(request, file, query.data.download === "1" ? "attachment" : "inline");
  } catch (error) {
    return errorJsonResponse(error);
  }
}
