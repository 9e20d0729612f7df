import { getEnv } from "@/lib/env";

/** Where Twilio posts delivery statuses and replies: `{APP_URL}/api/webhooks/sms` (the signature covers this URL). */
export function smsWebhookUrl(): string {
  return `${getEnv().APP_URL.replace(/\/+$/, "")}/api/webhooks/sms`;
}
