// POST /api/webhooks/sms – Twilio delivery statuses and replies: verify the signature, store, enqueue, acknowledge.
import { prepareDatabase } from "@/lib/boot";
import { receiveInboundEvent } from "@/lib/inbound-events/receive-inbound-event";
import { routeHandler } from "@/lib/next/route-handler";
import { processSmsEventJob } from "@/lib/sms/process-sms-event-job";
import { verifySmsWebhook } from "@/lib/sms/verify-sms-webhook";

export const dynamic = "force-dynamic";

/** Empty TwiML: the reply is taken, nothing is texted back (Twilio answers STOP and START itself). */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

// Twilio's posts are a few hundred bytes (a reply carries at most 1,600 characters and media links); 64 KiB is far above any.
export const POST = routeHandler({ maxBodyBytes: 64 * 1024 }, async ({ request, rawBody }) => {
  const event = verifySmsWebhook({ rawBody: Buffer.from(rawBody).toString("utf8"), url: request.url, headers: request.headers });
  const { db } = await prepareDatabase();
  await receiveInboundEvent(db, { source: "sms", ...event, job: processSmsEventJob });
  return new Response(EMPTY_TWIML, { status: 200, headers: { "content-type": "text/xml; charset=utf-8" } });
});
