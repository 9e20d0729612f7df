import { integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { idColumn, timestampTz, createdAt } from "./columns";
import { organizations } from "./organizations";

/**
 * Every verified webhook delivery, stored before it is acknowledged (docs/integrations.md). The unique
 * (source, provider_event_id) pair turns a duplicate delivery into a no-op.
 */
export const inboundEvents = pgTable(
  "inbound_events",
  {
    id: idColumn(),
    source: text("source", { enum: ["payments", "bank", "email", "identity", "sms"] }).notNull(),
    providerEventId: text("provider_event_id").notNull(),
    type: text("type").notNull(),
    organizationId: integer("organization_id").references(() => organizations.id, { onDelete: "set null" }),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["received", "processed", "ignored", "failed"] }).notNull().default("received"),
    processedAt: timestampTz("processed_at"),
    lastError: text("last_error"),
    receivedAt: createdAt(),
  },
  (t) => [uniqueIndex("inbound_events_source_provider_event_id_key").on(t.source, t.providerEventId)],
);

export type InboundEvent = typeof inboundEvents.$inferSelect;
export type NewInboundEvent = typeof inboundEvents.$inferInsert;
