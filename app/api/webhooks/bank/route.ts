// POST /api/webhooks/bank – Plaid item webhooks: verify the signed JWT, store, enqueue, acknowledge.
import { processBankEventJob } from "@/lib/bank/process-bank-event-job";
import { verifyBankWebhook } from "@/lib/bank/verify-bank-webhook";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse } from "@/lib/errors";
import { receiveInboundEvent } from "@/lib/inbound-events/receive-inbound-event";
import { readWebhookBody } from "@/lib/webhooks/read-webhook-body";

export const dynamic = "force-dynamic";

/** Plaid item webhooks are well under a kilobyte. */
const MAX_BODY_BYTES = 256 * 1024;

export async function POST(request: Request): Promise<Response> {
  try {
    const rawBody = Buffer.from(await readWebhookBody(request, MAX_BODY_BYTES)).toString("utf8");
    const webhook = await verifyBankWebhook({ rawBody, headers: request.headers });
    const { db } = await prepareDatabase();
    const { duplicate } = await receiveInboundEvent(db, { source: "bank", ...webhook, job: processBankEventJob });
    return Response.json(duplicate ? { received: true, duplicate: true } : { received: true });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
