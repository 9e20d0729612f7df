import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { smsMessages, type InboundEvent, type SmsMessage } from "@/db/schema";
import { processInboundEvent, type InboundEventOutcome } from "@/lib/inbound-events/process-inbound-event";
import { isStartKeyword, isStopKeyword, organizationsTextingNumber, recordSmsReply } from "./sms-opt-outs";
import type { SmsReplyEvent, SmsStatusEvent, SmsWebhookEvent } from "./verify-sms-webhook";

/** A status callback can outrun the send job's write of the message id: wait this long before giving up on it. */
const UNKNOWN_SID_GRACE_MS = 10 * 60 * 1000;

/** Our status for Twilio's status word; undefined keeps ours (queued, sending, accepted… are all "sent" to us). */
function statusOf(providerStatus: string): SmsMessage["status"] | undefined {
  if (providerStatus === "delivered" || providerStatus === "read") return "delivered";
  if (providerStatus === "undelivered") return "undelivered";
  if (providerStatus === "failed" || providerStatus === "canceled") return "failed";
  return undefined;
}
const FINAL: SmsMessage["status"][] = ["delivered", "undelivered", "failed"];

async function applyStatus(tx: Db, event: InboundEvent, data: SmsStatusEvent): Promise<InboundEventOutcome> {
  const [message] = await tx.select().from(smsMessages).where(eq(smsMessages.providerSid, data.messageSid)).for("update");
  if (!message) {
    // Not (yet) ours: retried for a while in case the send job has not stored the sid, then recorded as ignored.
    if (Date.now() - event.receivedAt.getTime() < UNKNOWN_SID_GRACE_MS) throw new Error(`sms ${data.messageSid} not stored yet`);
    return { status: "ignored", lastError: "no text with this MessageSid" };
  }
  const next = statusOf(data.status);
  // A final status is not overwritten by a late "sent" or "queued" (callbacks may arrive out of order).
  if (FINAL.includes(message.status) && !next) return { status: "ignored", organizationId: message.organizationId, lastError: "older status" };
  await tx
    .update(smsMessages)
    .set({
      providerStatus: data.status,
      ...(next ? { status: next } : {}),
      ...(data.errorCode ? { errorCode: data.errorCode } : {}),
      updatedAt: new Date(),
    })
    .where(eq(smsMessages.id, message.id));
  return { status: "processed", organizationId: message.organizationId };
}

async function applyReply(tx: Db, event: InboundEvent, data: SmsReplyEvent): Promise<InboundEventOutcome> {
  // Twilio's Advanced Opt-Out names the kind of keyword it matched; otherwise the standard words decide.
  const action =
    data.optOutType === "STOP" || isStopKeyword(data.keyword) ? "stop" : data.optOutType === "START" || isStartKeyword(data.keyword) ? "start" : null;
  if (!action) return { status: "ignored", lastError: "not a STOP or START reply" };
  const organizationIds = await organizationsTextingNumber(tx, data.from);
  await recordSmsReply(tx, { phone: data.from, organizationIds, action, keyword: data.keyword, at: event.receivedAt });
  return { status: organizationIds.length > 0 ? "processed" : "ignored", organizationId: organizationIds.length === 1 ? organizationIds[0] : null };
}

/**
 * Applies a stored Twilio webhook: a delivery status updates the text's row (`sms_messages`, by its
 * MessageSid); a STOP reply stops texts to the number for every organization texting it, a START
 * reply lets them go again; other replies are recorded as ignored. Runs in processInboundEvent (one
 * transaction with the event's status), so a retried job never applies an event twice.
 */
export async function applySmsEvent(db: Db, options: { inboundEventId: string }) {
  return processInboundEvent(db, {
    inboundEventId: options.inboundEventId,
    source: "sms",
    apply: async (tx, event) => {
      const data = event.payload as SmsWebhookEvent;
      return data.kind === "status" ? applyStatus(tx, event, data) : applyReply(tx, event, data);
    },
  });
}
