// POST /api/webhooks/payments – Stripe billing events: verify, store, enqueue, acknowledge.
import { prepareDatabase } from "@/lib/boot";
import { receiveInboundEvent } from "@/lib/inbound-events/receive-inbound-event";
import { routeHandler } from "@/lib/next/route-handler";
import { processPaymentEventJob } from "@/lib/payments/process-payment-event-job";
import { verifyPaymentWebhook } from "@/lib/payments/verify-payment-webhook";

export const dynamic = "force-dynamic";

// Stripe events are a few kilobytes (an invoice with many lines reaches tens); 1 MiB is far above any.
export const POST = routeHandler({ maxBodyBytes: 1024 * 1024 }, async ({ request, rawBody }) => {
  const event = verifyPaymentWebhook({ rawBody: Buffer.from(rawBody).toString("utf8"), headers: request.headers });
  const { db } = await prepareDatabase();
  const { duplicate } = await receiveInboundEvent(db, {
    source: "payments",
    providerEventId: event.id,
    type: event.type,
    payload: event.payload,
    job: processPaymentEventJob,
  });
  return Response.json(duplicate ? { received: true, duplicate: true } : { received: true });
});
