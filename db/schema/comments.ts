import { index, jsonb, pgTable, text, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
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
