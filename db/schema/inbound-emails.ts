import { index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn } from "./columns";
import { inboundEvents } from "./inbound-events";
import { organizations } from "./organizations";
import { outreachMessages } from "./outreach";

/**
 * Mail received through the inbound email webhook, routed by recipient: a reply to an outreach
 * message (threaded by its reply token), mail for an organization's inbox, or `unrouted`.
 * A sender's Message-ID is unique per recipient organization only: another tenant's mail with the
 * same id is never mistaken for a duplicate.
 */
export const inboundEmails = pgTable(
  "inbound_emails",
  {
    id: idColumn(),
    inboundEventId: uuid("inbound_event_id")
      .notNull()
      .unique()
      .references(() => inboundEvents.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    outreachMessageId: uuid("outreach_message_id").references(() => outreachMessages.id, { onDelete: "set null" }),
    messageId: text("message_id"),
    routing: text("routing", { enum: ["reply", "inbox", "unrouted"] }).notNull(),
    from: text("from"),
    to: text("to").notNull(),
    subject: text("subject").notNull().default(""),
    text: text("text").notNull().default(""),
    receivedAt: createdAt(),
  },
  (t) => [
    index("inbound_emails_organization_id_idx").on(t.organizationId),
    index("inbound_emails_outreach_message_id_idx").on(t.outreachMessageId),
    uniqueIndex("inbound_emails_organization_message_id_key").on(t.organizationId, t.messageId),
  ],
);

export type InboundEmail = typeof inboundEmails.$inferSelect;
export type NewInboundEmail = typeof inboundEmails.$inferInsert;
