// GET /signings/:id/sealed/:file – a sealed document (:file is its id), the certificate (`certificate`) or everything as a ZIP (`all`), for the package's signers and its managers (session).
import { contentDisposition } from "@/lib/api/content-disposition";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";
import { getSealedFile } from "@/lib/seals/get-sealed-file";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string; file: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const { id, file } = await params;
    const principal = await getSessionPrincipal(db, { packageId: id, cookiesFrom: request });
    if (!principal) throw Unauthorized("Sign in to download the sealed documents.");
    const sealed = await getSealedFile(db, { principal, packageId: id, file, as: "any" });
    return new Response(Buffer.from(sealed.content), {
      status: 200,
      headers: {
        "Content-Type": sealed.contentType,
        "Content-Disposition": contentDisposition("attachment", sealed.fileName),
        "Content-Length": String(sealed.content.byteLength),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
        ...(sealed.sha256 ? { ETag: `"${sealed.sha256}"` } : {}),
      },
    });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
