// GET /documents/:id/files/:fileId – a chattel document's file for the signed-in manager (inline for the preview; `?download=1` as an attachment).
import { z } from "zod";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { getDocumentFileDownload } from "@/lib/chattel-documents/get-document-file-content";
import { BadRequest, errorJsonResponse, Unauthorized } from "@/lib/errors";
import { fileResponse } from "../../../../../_lib/file-response";

export const dynamic = "force-dynamic";

const ParamsSchema = z.object({ id: z.uuid(), fileId: z.uuid() });
const QuerySchema = z.object({ download: z.enum(["0", "1"]).optional() });

type Params = { params: Promise<{ id: string; fileId: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  try {
    const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw BadRequest("Query parameter download must be 0 or 1.");
    const ids = ParamsSchema.safeParse(await params);
    if (!ids.success) throw BadRequest("Document and file ids must be UUIDs.");
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to view this file.");
    // The type sniffed from the bytes at upload (PDF, PNG or JPEG), never the name the uploader gave.
    const file = await getDocumentFileDownload(db, { principal, documentId: ids.data.id, fileId: ids.data.fileId });
    return await fileResponse(request, file, query.data.download === "1" ? "attachment" : "inline");
  } catch (error) {
    return errorJsonResponse(error);
  }
}
