import { index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { chattelDocuments } from "./chattel-documents";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { organizations } from "./organizations";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

export const outreachStatusEnum = pgEnum("outreach_status", ["queued", "sent", "failed", "replied"]);
export const outreachRecipientKindEnum = pgEnum("outreach_recipient_kind", ["borrower", "co_borrower", "dealer_contact"]);

/** A message from the organization to a borrower or dealer contact. `replyToken` threads replies. */
export const outreachMessages = pgTable(
  "outreach_messages",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    chattelDocumentId: uuid("chattel_document_id").references(() => chattelDocuments.id, { onDelete: "cascade" }),
    signingPackageId: uuid("signing_package_id").references(() => signingPackages.id, { onDelete: "set null" }),
    recipientKind: outreachRecipientKindEnum("recipient_kind").notNull(),
    recipientName: text("recipient_name"),
    recipientEmail: text("recipient_email").notNull(),
    purpose: text("purpose", { enum: ["request_document", "remind_unsigned", "custom"] }).notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    status: outreachStatusEnum("status").notNull().default("queued"),
    replyToken: text("reply_token").notNull(),
    sentAt: timestampTz("sent_at"),
    repliedAt: timestampTz("replied_at"),
    lastError: text("last_error"),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("outreach_messages_reply_token_key").on(t.replyToken),
    index("outreach_messages_chattel_document_id_idx").on(t.chattelDocumentId),
  ],
);

/** Outbound mail kept in the database when no SMTP server is configured (the dev outbox). */
export const outboxEmails = pgTable("outbox_emails", {
  id: idColumn(),
  to: text("to").notNull(),
  from: text("from").notNull(),
  replyTo: text("reply_to"),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  /** The HTML part, when the mail has one (what a mail client would show). */
  html: text("html"),
  createdAt: createdAt(),
});

export type OutreachMessage = typeof outreachMessages.$inferSelect;
export type NewOutreachMessage = typeof outreachMessages.$inferInsert;
export type OutboxEmail = typeof outboxEmails.$inferSelect;
