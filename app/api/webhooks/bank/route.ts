// POST /api/webhooks/bank – Plaid item webhooks: verify the signed JWT, store, enqueue, acknowledge.
import { processBankEventJob } from "@/lib/bank/process-bank-event-job";
import { verifyBankWebhook } from "@/lib/bank/verify-bank-webhook";
import { prepareDatabase } from "@/lib/boot";
import { receiveInboundEvent } from "@/lib/inbound-events/receive-inbound-event";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

// Plaid item webhooks are well under a kilobyte; 64 KiB leaves room for any future field.
export const POST = routeHandler({ maxBodyBytes: 64 * 1024 }, async ({ request, rawBody }) => {
  const webhook = await verifyBankWebhook({ rawBody: Buffer.from(rawBody).toString("utf8"), headers: request.headers });
  const { db } = await prepareDatabase();
  const { duplicate } = await receiveInboundEvent(db, { source: "bank", ...webhook, job: processBankEventJob });
  return Response.json(duplicate ? { received: true, duplicate: true } : { received: true });
});
