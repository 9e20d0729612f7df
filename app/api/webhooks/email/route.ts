// POST /api/webhooks/email – inbound email (multipart/form-data or JSON): check the token, store, enqueue.
import { prepareDatabase } from "@/lib/boot";
import { parseInboundEmail } from "@/lib/email/parse-inbound-email";
import { processInboundEmailJob } from "@/lib/email/process-inbound-email-job";
import { verifyEmailWebhookToken } from "@/lib/email/verify-email-webhook-token";
import { receiveInboundEvent } from "@/lib/inbound-events/receive-inbound-event";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

// Mail with attachments arrives in one request: 5 MiB covers a reply with a scanned page or two.
// The token is in the URL, so a wrong one is refused (401) before a byte of the body is read.
export const POST = routeHandler(
  { maxBodyBytes: 5 * 1024 * 1024, preflight: (request) => verifyEmailWebhookToken(request.url) },
  async ({ request, rawBody }) => {
    const mail = await parseInboundEmail({ body: rawBody, contentType: request.headers.get("content-type") });
    const { db } = await prepareDatabase();
    const { duplicate } = await receiveInboundEvent(db, {
      source: "email",
      providerEventId: mail.deliveryKey,
      type: "email.received",
      payload: mail,
      job: processInboundEmailJob,
    });
    return Response.json(duplicate ? { received: true, duplicate: true } : { received: true });
  },
);
