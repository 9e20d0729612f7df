// POST /api/bank/exchange – trades Link's one-time public_token for a stored (encrypted) bank item.
import { z } from "zod";
import { authorizeBankRequest } from "@/lib/bank/authorize-bank-request";
import { exchangePublicToken } from "@/lib/bank/exchange-public-token";
import { prepareDatabase } from "@/lib/boot";
import { BadRequest, errorJsonResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

const BodySchema = z.object({ public_token: z.string().trim().min(1).max(512) });

const NO_STORE = { "Cache-Control": "no-store" };

async function readBody(request: Request): Promise<z.infer<typeof BodySchema>> {
  let json: unknown;
  try {
    json = JSON.parse(await request.text());
  } catch {
    throw BadRequest("Request body must be valid JSON.");
  }
  const parsed = BodySchema.safeParse(json);
  if (!parsed.success) throw BadRequest('Request body must be { "public_token": string }.');
  return parsed.data;
}

export async function POST(request: Request): Promise<Response> {
  try {
    const { db } = await prepareDatabase();
    const user = await authorizeBankRequest(db, { request });
    const { public_token } = await readBody(request);
    return Response.json(await exchangePublicToken(db, { userId: user.id, publicToken: public_token }), { headers: NO_STORE });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
