import { Webhook } from "svix";

/**
 * The Standard Webhooks headers for one message: `webhook-signature` holds one `v1,<base64>`
 * HMAC-SHA256 per secret, space-separated (during a rotation both the new and the previous secret
 * sign, so a receiver with either verifies).
 */
export function signWebhook(options: { id: string; timestamp: Date; body: string; secrets: string[] }): Record<string, string> {
  const signatures = options.secrets.map((secret) => new Webhook(secret).sign(options.id, options.timestamp, options.body));
  return {
    "webhook-id": options.id,
    "webhook-timestamp": String(Math.floor(options.timestamp.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
