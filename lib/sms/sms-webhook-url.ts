import { getEnv } from "@/lib/env";

/** Where Twilio posts delivery statuses and replies: `{APP_URL}/api/webhooks/sms` (the signature covers this URL). */
export function smsWebhookUrl(): string {
  return `${getEnv().APP_URL.replace(/\/+$/, "")}/api/webhooks/sms`;
}

/**
 * The status callback sent with each text: the webhook, when APP_URL is an https:// origin. Twilio
 * cannot reach a local http:// address (and may refuse it), so a development setup gets no statuses.
 */
export function smsStatusCallbackUrl(): string | undefined {
  return getEnv().APP_URL.startsWith("https://") ? smsWebhookUrl() : undefined;
}
