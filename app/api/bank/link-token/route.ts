// POST /api/bank/link-token – a Plaid Link token for the signed-in user.
import { assertBankConfigured } from "@/lib/bank/assert-bank-configured";
import { createLinkToken } from "@/lib/bank/create-link-token";
import { routeHandler } from "@/lib/next/route-handler";
import { BANK_ROUTE } from "@/lib/next/bank-route";

export const dynamic = "force-dynamic";

export const POST = routeHandler(BANK_ROUTE, async ({ principal }) => {
  assertBankConfigured();
  return Response.json(await createLinkToken({ userId: principal.user.id }));
});
