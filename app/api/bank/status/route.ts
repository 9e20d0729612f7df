// GET /api/bank/status – whether the signed-in user (or the signer of `?package=` in a
// signer session) has a linked bank item, and its health.
import { assertBankConfigured } from "@/lib/bank/assert-bank-configured";
import { bankOwnerOf } from "@/lib/bank/bank-owner";
import { getBankStatus } from "@/lib/bank/get-bank-status";
import { routeHandler } from "@/lib/next/route-handler";
import { BANK_ROUTE } from "@/lib/next/bank-route";

export const dynamic = "force-dynamic";

export const GET = routeHandler(BANK_ROUTE, async ({ db, principal }) => {
  assertBankConfigured();
  return Response.json(await getBankStatus(db, { owner: bankOwnerOf(principal) }));
});
