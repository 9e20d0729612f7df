import type { Db } from "@/db/client";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import type { Principal } from "@/lib/auth/principal";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";
import { fileResponse } from "../../../_lib/file-response";

type FileOf = (db: Db, principal: Principal, ids: { id: string; docId: string }) => Promise<Parameters<typeof fileResponse>[1]>;

/**
 * The GET handler of `…/<id>/fields/<docId>/file`: a document's PDF for the field editor, for a
 * signed-in manager whose scope holds the owner (`fileOf` loads it and throws NotFound otherwise).
 */
export function documentFileRoute(fileOf: FileOf) {
  return async function GET(request: Request, { params }: { params: Promise<{ id: string; docId: string }> }): Promise<Response> {
    try {
      const { db } = await prepareDatabase();
      const principal = await getSessionPrincipal(db);
      if (!principal) throw Unauthorized("Sign in to view this document.");
      return fileResponse(request, await fileOf(db, principal, await params));
    } catch (error) {
      return errorJsonResponse(error);
    }
  };
}
