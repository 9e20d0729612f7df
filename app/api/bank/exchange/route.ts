// POST /api/bank/exchange – trades Link's one-time public_token for a stored (encrypted) bank item.
import { z } from "zod";
import { assertBankConfigured } from "@/lib/bank/assert-bank-configured";
import { assertSignerMayLinkBank } from "@/lib/bank/assert-signer-may-link-bank";
import { bankOwnerOf } from "@/lib/bank/bank-owner";
import { exchangePublicToken } from "@/lib/bank/exchange-public-token";
import { routeHandler } from "@/lib/next/route-handler";
import { BANK_ROUTE } from "@/lib/next/bank-route";

export const dynamic = "force-dynamic";

const BodySchema = z.object({ public_token: z.string().trim().min(1).max(512) });

export const POST = routeHandler(
  { ...BANK_ROUTE, body: BodySchema, invalidBody: 'Request body must be { "public_token": string }.' },
  async ({ db, principal, body }) => {
    assertBankConfigured();
    await assertSignerMayLinkBank(db, principal);
    return Response.json(await exchangePublicToken(db, { owner: bankOwnerOf(principal), publicToken: body.public_token }));
  },
);
