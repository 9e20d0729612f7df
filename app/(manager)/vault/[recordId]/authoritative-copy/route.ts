// GET /vault/:recordId/authoritative-copy – a transferable record's authoritative copy, for admins of its controlling organization (session).
import { storedFileResponse } from "@/lib/api/stored-file-response";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";
import { getAuthoritativeCopy } from "@/lib/transferable-records/get-vault-record";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ recordId: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const { recordId } = await params;
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to download the authoritative copy.");
    return await storedFileResponse(await getAuthoritativeCopy(db, { principal, recordId }));
  } catch (error) {
    return errorJsonResponse(error);
  }
}
