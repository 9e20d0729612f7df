// POST /api/bank/link-token – a Plaid Link token for the signed-in user, or for the signer of `?package=`
// in a signer session (an emailed link).
import { assertBankConfigured } from "@/lib/bank/assert-bank-configured";
import { assertSignerMayLinkBank } from "@/lib/bank/assert-signer-may-link-bank";
import { bankOwnerOf } from "@/lib/bank/bank-owner";
import { createLinkToken } from "@/lib/bank/create-link-token";
import { routeHandler } from "@/lib/next/route-handler";
import { BANK_ROUTE } from "@/lib/next/bank-route";

export const dynamic = "force-dynamic";

export const POST = routeHandler(BANK_ROUTE, async ({ db, principal }) => {
  assertBankConfigured();
  await assertSignerMayLinkBank(db, principal);
  return Response.json(await createLinkToken({ owner: bankOwnerOf(principal) }));
});
