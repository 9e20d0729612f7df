import { bigint, index, jsonb, pgTable, text, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { chattelDocuments } from "./chattel-documents";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { users } from "./users";

/** Threaded comments on a chattel document; `parentId` points at the comment replied to. */
export const comments = pgTable(
  "comments",
  {
    id: idColumn(),
    chattelDocumentId: uuid("chattel_document_id")
      .notNull()
      .references(() => chattelDocuments.id, { onDelete: "cascade" }),
    parentId: uuid("parent_id").references((): AnyPgColumn => comments.id, { onDelete: "cascade" }),
    authorUserId: uuid("author_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    body: text("body").notNull(),
    mentionedUserIds: jsonb("mentioned_user_ids").$type<string[]>().notNull().default([]),
    editedAt: timestampTz("edited_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("comments_chattel_document_id_idx").on(t.chattelDocumentId, t.id)],
);

export type Comment = typeof comments.$inferSelect;
export type NewComment = typeof comments.$inferInsert;

/**
 * The log of a document's comment events (created, updated, deleted), written as each is published:
 * its id is the server-sent event's `id`, so a client reconnecting with `Last-Event-ID` gets the
 * events it missed from here before the live ones. Kept 24 hours.
 */
export const commentEvents = pgTable(
  "comment_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    chattelDocumentId: uuid("chattel_document_id")
      .notNull()
      .references(() => chattelDocuments.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["created", "updated", "deleted"] }).notNull(),
    /** The event's data as it was sent: the comment, or for `deleted` its id, documentId and parentId. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("comment_events_chattel_document_id_idx").on(t.chattelDocumentId, t.id)],
);

export type CommentEventRow = typeof commentEvents.$inferSelect;
