// GET /api/bank/status – whether the signed-in user has a linked bank item, and its health.
import { authorizeBankRequest } from "@/lib/bank/authorize-bank-request";
import { getBankStatus } from "@/lib/bank/get-bank-status";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const user = await authorizeBankRequest(db, { request });
    return Response.json(await getBankStatus(db, { userId: user.id }), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
