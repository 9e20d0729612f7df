// POST /api/webhooks/payments – Stripe billing events: verify, store, enqueue, acknowledge.
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse } from "@/lib/errors";
import { receiveInboundEvent } from "@/lib/inbound-events/receive-inbound-event";
import { processPaymentEventJob } from "@/lib/payments/process-payment-event-job";
import { verifyPaymentWebhook } from "@/lib/payments/verify-payment-webhook";
import { readWebhookBody } from "@/lib/webhooks/read-webhook-body";

export const dynamic = "force-dynamic";

/** Stripe events are a few kilobytes; the cap bounds what an unauthenticated sender can make us buffer. */
const MAX_BODY_BYTES = 1024 * 1024;

export async function POST(request: Request): Promise<Response> {
  try {
    const rawBody = Buffer.from(await readWebhookBody(request, MAX_BODY_BYTES)).toString("utf8");
    const event = verifyPaymentWebhook({ rawBody, headers: request.headers });
    const { db } = await prepareDatabase();
    const { duplicate } = await receiveInboundEvent(db, {
      source: "payments",
      providerEventId: event.id,
      type: event.type,
      payload: event.payload,
      job: processPaymentEventJob,
    });
    return Response.json(duplicate ? { received: true, duplicate: true } : { received: true });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
