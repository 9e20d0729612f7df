// POST /api/bank/link-token – a Plaid Link token for the signed-in user.
import { authorizeBankRequest } from "@/lib/bank/authorize-bank-request";
import { createLinkToken } from "@/lib/bank/create-link-token";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

export async function POST(request: Request): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const user = await authorizeBankRequest(db, { request });
    return Response.json(await createLinkToken({ userId: user.id }), { headers: NO_STORE });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
