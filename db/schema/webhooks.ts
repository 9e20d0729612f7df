import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { organizations } from "./organizations";
import { users } from "./users";

/**
 * An organization's outbound webhook endpoint (docs/webhooks.md). The signing secret (`whsec_…`) is
 * needed in clear to sign, so it is stored encrypted (AES-256-GCM, lib/webhooks/secret-crypto.ts);
 * after a rotation the previous secret also signs until `previousSecretExpiresAt`.
 * `eventTypes` empty = every event type.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    eventTypes: text("event_types").array().notNull().default(sql`'{}'::text[]`),
    status: text("status", { enum: ["active", "paused", "disabled"] }).notNull().default("active"),
    disabledReason: text("disabled_reason"),
    secretCiphertext: text("secret_ciphertext").notNull(),
    previousSecretCiphertext: text("previous_secret_ciphertext"),
    previousSecretExpiresAt: timestampTz("previous_secret_expires_at"),
    /** The first failed attempt since the last success: the endpoint is disabled when it has failed for days. */
    failingSince: timestampTz("failing_since"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_endpoints_organization_id_idx").on(t.organizationId),
    check("webhook_endpoints_disabled_reason_check", sql`(${t.status} = 'disabled') = (${t.disabledReason} is not null)`),
  ],
);

/** One thing that happened, as its receivers get it: ids and states only, never bytes, links, codes or tokens. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_organization_created_idx").on(t.organizationId, t.createdAt)],
);

/**
 * One event on its way to one endpoint. A replay is a new delivery of the same event (same
 * `webhook-id`, so a receiver that already has it can drop it).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: idColumn(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "succeeded", "failed", "cancelled"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestampTz("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_event_id_idx").on(t.eventId),
  ],
);

/** Every HTTP attempt of a delivery: status, latency and the first 1 KB of the answer (never our secrets). */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: idColumn(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_attempts_delivery_id_idx").on(t.deliveryId, t.attempt)],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type NewWebhookEndpoint = typeof webhookEndpoints.$inferInsert;
export type WebhookEvent = typeof webhookEvents.$inferSelect;
export type NewWebhookEvent = typeof webhookEvents.$inferInsert;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDelivery = typeof webhookDeliveries.$inferInsert;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;
export type NewWebhookAttempt = typeof webhookAttempts.$inferInsert;
