// GET /signings/:id/sealed/:file – a sealed document (:file is its id), the certificate (`certificate`) or everything as a ZIP (`all`), for the package's signers and its managers (session).
import { requestPrincipal } from "@/lib/next/request-principal";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";
import { getSealedFile } from "@/lib/seals/get-sealed-file";
import { storedFileResponse } from "@/lib/api/stored-file-response";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string; file: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const { id, file } = await params;
    const principal = await requestPrincipal(db, { request, link: { kind: "signer", packageId: id } });
    if (!principal) throw Unauthorized("Sign in to download the sealed documents.");
    return await storedFileResponse(await getSealedFile(db, { principal, packageId: id, file, as: "any" }));
  } catch (error) {
    return errorJsonResponse(error);
  }
}
