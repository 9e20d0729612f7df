// GET /signings/:id/documents/:docId/file – the original PDF of a document in a package assigned to the signed-in signer, or managed by the signed-in manager (the viewer's source; `?download=1` for an attachment).
import { z } from "zod";
import { contentDisposition } from "@/lib/api/content-disposition";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { BadRequest, errorJsonResponse, Unauthorized } from "@/lib/errors";
import { getViewableDocumentFile } from "@/lib/signings/get-viewable-document-file";

export const dynamic = "force-dynamic";

const QuerySchema = z.object({ download: z.enum(["0", "1"]).optional() });

type Params = { params: Promise<{ id: string; docId: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  try {
    const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw BadRequest("Query parameter download must be 0 or 1.");
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to view this document.");
    const { id, docId } = await params;
    const file = await getViewableDocumentFile(db, { principal, packageId: id, documentId: docId });
    const etag = `"${file.sha256}"`;
    const headers = { ETag: etag, "Cache-Control": "private, no-cache", "X-Content-Type-Options": "nosniff" };
    const ifNoneMatch = request.headers.get("if-none-match");
    if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(Buffer.from(file.content), {
      status: 200,
      headers: {
        ...headers,
        "Content-Type": file.contentType || "application/pdf",
        "Content-Disposition": contentDisposition(query.data.download === "1" ? "attachment" : "inline", file.name),
        "Content-Length": String(file.content.byteLength),
      },
    });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
