// POST /api/webhooks/email – inbound email (multipart/form-data or JSON): check the token, store, enqueue.
import { prepareDatabase } from "@/lib/boot";
import { parseInboundEmail } from "@/lib/email/parse-inbound-email";
import { processInboundEmailJob } from "@/lib/email/process-inbound-email-job";
import { verifyEmailWebhookToken } from "@/lib/email/verify-email-webhook-token";
import { errorJsonResponse } from "@/lib/errors";
import { receiveInboundEvent } from "@/lib/inbound-events/receive-inbound-event";
import { readWebhookBody } from "@/lib/webhooks/read-webhook-body";

export const dynamic = "force-dynamic";

/** Mail with attachments arrives in one request; larger bodies are refused with 413. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

export async function POST(request: Request): Promise<Response> {
  try {
    verifyEmailWebhookToken(request.url);
    const body = await readWebhookBody(request, MAX_BODY_BYTES);
    const mail = await parseInboundEmail({ body, contentType: request.headers.get("content-type") });
    const { db } = await prepareDatabase();
    const { duplicate } = await receiveInboundEvent(db, {
      source: "email",
      providerEventId: mail.deliveryKey,
      type: "email.received",
      payload: mail,
      job: processInboundEmailJob,
    });
    return Response.json(duplicate ? { received: true, duplicate: true } : { received: true });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
