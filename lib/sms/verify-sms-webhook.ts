import twilio from "twilio";
import { getEnv } from "@/lib/env";
import { BadRequest, Unauthorized, Unavailable } from "@/lib/errors";
import { log } from "@/lib/log";
import { smsKeyword } from "./sms-opt-outs";
import { smsWebhookUrl } from "./sms-webhook-url";

/** What is stored of a delivery status callback: no body, no other number than the signer's. */
export type SmsStatusEvent = { kind: "status"; messageSid: string; status: string; errorCode: string | null; to: string | null };
/** What is stored of a reply: the keyword only when it is a short word, never a free-text message. */
export type SmsReplyEvent = { kind: "reply"; messageSid: string; from: string; keyword: string; optOutType: string | null };
export type SmsWebhookEvent = SmsStatusEvent | SmsReplyEvent;

export type VerifiedSmsWebhook = { providerEventId: string; type: string; payload: SmsWebhookEvent };

const SID = /^(SM|MM)[0-9a-f]{32}$/i;
const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * Checks Twilio's `X-Twilio-Signature` with the SDK's `validateRequest` (HMAC-SHA1 under
 * TWILIO_AUTH_TOKEN over `{APP_URL}/api/webhooks/sms` plus the query string and the sorted form
 * parameters) and that the post is for our account, then reads it as a delivery status
 * (`MessageStatus`) or a reply (`Body`). The event id is `<MessageSid>:<status>` or the reply's own
 * sid, so a redelivery or a replay of the same post is stored once. 503 when SMS is not configured,
 * 401 for a missing or wrong signature, 400 for a post that is neither.
 */
export function verifySmsWebhook(options: { rawBody: string; url: string; headers: Headers }): VerifiedSmsWebhook {
  const env = getEnv();
  if (!env.TWILIO_AUTH_TOKEN || !env.TWILIO_ACCOUNT_SID) throw Unavailable("Text messages are not set up for this service.");
  const signature = options.headers.get("x-twilio-signature");
  if (!signature) throw Unauthorized("Missing X-Twilio-Signature header.");
  const params = Object.fromEntries(new URLSearchParams(options.rawBody));
  const url = `${smsWebhookUrl()}${new URL(options.url).search}`;
  if (!twilio.validateRequest(env.TWILIO_AUTH_TOKEN, signature, url, params)) {
    log.warn("sms webhook rejected", { reason: "signature" });
    throw Unauthorized("Invalid webhook signature.");
  }
  if (params.AccountSid !== env.TWILIO_ACCOUNT_SID) throw BadRequest("The webhook is for another Twilio account.");
  const messageSid = params.MessageSid ?? params.SmsSid ?? "";
  if (!SID.test(messageSid)) throw BadRequest("The webhook has no valid MessageSid.");
  const status = (params.MessageStatus ?? params.SmsStatus ?? "").toLowerCase();
  if (status && status !== "received" && params.Body === undefined) {
    if (!/^[a-z_]{1,32}$/.test(status)) throw BadRequest("The webhook's MessageStatus is not a status.");
    const errorCode = params.ErrorCode && /^\d{1,10}$/.test(params.ErrorCode) ? params.ErrorCode : null;
    return {
      providerEventId: `${messageSid}:${status}`,
      type: `sms.status.${status}`,
      payload: { kind: "status", messageSid, status, errorCode, to: params.To && E164.test(params.To) ? params.To : null },
    };
  }
  if (params.Body !== undefined) {
    const from = params.From ?? "";
    if (!E164.test(from)) throw BadRequest("The reply has no valid From number.");
    const word = smsKeyword(params.Body);
    const keyword = /^[A-Z]{1,16}$/.test(word) ? word : "OTHER";
    const optOutType = params.OptOutType && /^[A-Z]{1,16}$/i.test(params.OptOutType) ? params.OptOutType.toUpperCase() : null;
    return { providerEventId: messageSid, type: "sms.reply", payload: { kind: "reply", messageSid, from, keyword, optOutType } };
  }
  throw BadRequest("The webhook is neither a delivery status nor a reply.");
}
