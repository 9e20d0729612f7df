import { index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn } from "./columns";
import { inboundEvents } from "./inbound-events";
import { organizations } from "./organizations";
import { outreachMessages } from "./outreach";

/**
 * Mail received through the inbound email webhook, routed by recipient: a reply to an outreach
 * message (threaded by its reply token), mail for an organization's inbox, or `unrouted`.
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
  ],
);

export type InboundEmail = typeof inboundEmails.$inferSelect;
export type NewInboundEmail = typeof inboundEmails.$inferInsert;
