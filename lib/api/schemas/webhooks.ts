import { z } from "@hono/zod-openapi";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema/webhooks";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/webhooks/event-types";
import { MAX_WEBHOOK_URL_LENGTH } from "@/lib/webhooks/validate-webhook-url";
import { IsoDateTime, SafeString } from "./common";
import { PaginationQuerySchema, pageSchema } from "./pagination";

// Outbound webhooks (/v1/workspace/webhooks): endpoints, their delivery log and replays.

const OrganizationIdField = z
  .number({ error: "expected an integer organization id" })
  .int({ error: "expected an integer organization id" })
  .positive()
  .max(2_147_483_647)
  .optional()
  .openapi({ description: "Required when you administer several organizations" });

export const WebhookEventTypeSchema = z
  .enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]])
  .openapi("WebhookEventType");

const SubscribableTypes = z
  .array(WebhookEventTypeSchema.exclude(["webhook.test"]))
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)])
  .openapi({ description: "The event types the endpoint receives; empty (the default) = every type" });

const UrlField = SafeString.trim().min(1).max(MAX_WEBHOOK_URL_LENGTH).openapi({ example: "https://los.example.com/hooks/closing" });

export const CreateWebhookEndpointSchema = z
  .strictObject({
    url: UrlField,
    description: SafeString.trim().max(500).default(""),
    eventTypes: SubscribableTypes.default([]),
    organizationId: OrganizationIdField,
  })
  .openapi("CreateWebhookEndpoint");

export const UpdateWebhookEndpointSchema = z
  .strictObject({
    url: UrlField.optional(),
    description: SafeString.trim().max(500).optional(),
    eventTypes: SubscribableTypes.optional(),
    status: z
      .enum(["active", "paused"])
      .optional()
      .openapi({ description: "`paused` stops deliveries (events meanwhile are not sent; replay them later); `active` resumes, also a disabled endpoint" }),
  })
  .openapi("UpdateWebhookEndpoint");

export const RotateWebhookSecretSchema = z
  .strictObject({
    overlapHours: z
      .number()
      .int()
      .min(0)
      .max(168)
      .default(24)
      .openapi({ description: "How long the previous secret keeps signing beside the new one (0–168 hours)" }),
  })
  .openapi("RotateWebhookSecret");

export const ReplayWebhookEventsSchema = z
  .union([
    z.strictObject({ eventId: z.uuid().openapi({ description: "Send this one event again" }) }),
    z.strictObject({ since: IsoDateTime.openapi({ description: "Send again every event of the endpoint's types since this time (at most 1,000)" }) }),
  ])
  .openapi("ReplayWebhookEvents");

export const WebhookEndpointIdParamSchema = z.object({ id: z.uuid({ error: "expected a webhook endpoint id" }) });

export const WebhookDeliveriesQuerySchema = PaginationQuerySchema.extend({
  status: z.enum(webhookDeliveries.status.enumValues).optional(),
  eventType: WebhookEventTypeSchema.optional(),
  since: IsoDateTime.optional().openapi({ description: "Only deliveries created at or after this time" }),
});

export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    organizationId: z.number().int(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(WebhookEventTypeSchema),
    status: z.enum(webhookEndpoints.status.enumValues),
    disabledReason: z.string().nullable(),
    previousSecretExpiresAt: IsoDateTime.nullable().openapi({ description: "While set, the previous secret still signs beside the current one" }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("WebhookEndpoint");

export const WebhookEndpointListSchema = z.object({ data: z.array(WebhookEndpointSchema) }).openapi("WebhookEndpointList");

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({ description: "The signing secret (`whsec_…`), shown only in this answer", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
}).openapi("WebhookEndpointWithSecret");

export const WebhookAttemptSchema = z
  .object({
    attempt: z.number().int(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().int(),
    responseBody: z.string().nullable().openapi({ description: "The first 1 KB of the answer" }),
    at: IsoDateTime,
  })
  .openapi("WebhookAttempt");

export const WebhookDeliverySchema = z
  .object({
    id: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(webhookDeliveries.status.enumValues),
    nextAttemptAt: IsoDateTime.nullable(),
    createdAt: IsoDateTime,
    attempts: z.array(WebhookAttemptSchema),
  })
  .openapi("WebhookDelivery");

export const WebhookDeliveryPageSchema = pageSchema(WebhookDeliverySchema, "WebhookDeliveryPage");

export const WebhookTestSchema = z.object({ eventId: z.string(), deliveryId: z.string() }).openapi("WebhookTestResult");

export const WebhookReplaySchema = z
  .object({ replayed: z.number().int().openapi({ description: "How many deliveries were created" }), truncated: z.boolean() })
  .openapi("WebhookReplay");
