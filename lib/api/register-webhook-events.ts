import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_SCHEMAS, WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/event-types";
import type { ApiEnv } from "./context";
import { IsoDateTime } from "./schemas/common";

const SIGNATURE_HEADERS = z.object({
  "webhook-id": z.string().openapi({ description: "The event id: the same on every retry and replay of this event (deduplicate by it)" }),
  "webhook-timestamp": z.string().openapi({ description: "When this attempt was signed, in seconds since the epoch (refuse old ones)" }),
  "webhook-signature": z.string().openapi({
    description: "Space-separated `v1,<base64 HMAC-SHA256>` signatures (Standard Webhooks); two during a secret rotation",
  }),
});

const camel = (type: string) => type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase());

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type of the catalogue
 * (lib/webhooks/event-types.ts), with its body and the Standard Webhooks signature headers.
 */
export function registerWebhookEvents(app: OpenAPIHono<ApiEnv>): void {
  for (const type of WEBHOOK_EVENT_TYPES) {
    const name = camel(type);
    const body = z
      .object({
        id: z.string().openapi({ description: "The event id (also `webhook-id`)" }),
        type: z.literal(type),
        timestamp: IsoDateTime.openapi({ description: "When the event happened" }),
        data: WEBHOOK_EVENT_SCHEMAS[type],
      })
      .openapi(`${name.charAt(0).toUpperCase()}${name.slice(1)}Event`);
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `${name}Webhook`,
      summary: type,
      description: `${WEBHOOK_EVENT_DESCRIPTIONS[type]} Delivered to the endpoints that receive \`${type}\` (docs/webhooks.md).`,
      tags: ["Webhooks"],
      security: [],
      request: { headers: SIGNATURE_HEADERS, body: { required: true, content: { "application/json": { schema: body } } } },
      responses: {
        200: { description: "Received: any 2xx within 10 seconds ends the delivery" },
        410: { description: "Gone: the endpoint is disabled and receives nothing more" },
        default: { description: "Anything else (or no answer within 10 seconds): retried with backoff for about three days" },
      },
    });
  }
}
