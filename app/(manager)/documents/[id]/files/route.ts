// POST /documents/:id/files – upload a file to a chattel document with the manager's session (multipart, part `file`); the upload form uses it to show progress.
import { z } from "zod";
import { UploadDocumentFileSchema } from "@/lib/api/schemas/documents";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { serializeDocumentFile } from "@/lib/chattel-documents/serialize-document-file";
import { uploadDocumentFile } from "@/lib/chattel-documents/upload-document-file";
import { MAX_PDF_BYTES } from "@/lib/pdf/validate-pdf-upload";
import { AppError, BadRequest, errorJsonResponse, Unauthorized } from "@/lib/errors";
import { clientIpFromRequest } from "@/lib/net/client-ip";
import { readCappedBody } from "@/lib/next/read-capped-body";

export const dynamic = "force-dynamic";

/** The file cap plus multipart framing, as for the /v1 upload route (lib/api/app.ts). */
const BODY_LIMIT_BYTES = MAX_PDF_BYTES + 64 * 1024;
const ParamsSchema = z.object({ id: z.uuid() });

type Params = { params: Promise<{ id: string }> };

export async function POST(request: Request, { params }: Params): Promise<Response> {
  try {
    const ids = ParamsSchema.safeParse(await params);
    if (!ids.success) throw BadRequest("The document id must be a UUID.");
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to upload files.");
    const tooLarge = new AppError("payload_too_large", `The file exceeds the ${MAX_PDF_BYTES / 1024 / 1024} MiB limit.`);
    if (Number(request.headers.get("content-length") ?? 0) > BODY_LIMIT_BYTES) throw tooLarge;
    // Read with the cap while it streams (a chunked or lying sender is cut off at the cap, not buffered or awaited), then parsed.
    const raw = await readCappedBody(request, BODY_LIMIT_BYTES).catch((error: unknown) => {
      throw error instanceof AppError && error.code === "payload_too_large" ? tooLarge : error;
    });
    const multipart = new Response(Buffer.from(raw), { headers: { "content-type": request.headers.get("content-type") ?? "" } });
    const form = await multipart.formData().catch(() => {
      throw BadRequest("Expected a multipart/form-data body with a file part named file.");
    });
    const parsed = UploadDocumentFileSchema.safeParse({ file: form.get("file") ?? undefined });
    if (!parsed.success) throw BadRequest("Expected a multipart/form-data body with a file part named file.");
    const { file } = parsed.data;
    const stored = await uploadDocumentFile(db, {
      principal,
      documentId: ids.data.id,
      fileName: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
      ipAddress: clientIpFromRequest(request.headers),
    });
    return Response.json(serializeDocumentFile(stored), { status: 201 });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
