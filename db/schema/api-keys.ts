import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz } from "./columns";
import { users } from "./users";

/** Personal API keys. Only the SHA-256 of the key is stored; `prefix` lets a user recognise it. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: idColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    lastUsedAt: timestampTz("last_used_at"),
    expiresAt: timestampTz("expires_at"),
    revokedAt: timestampTz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("api_keys_key_hash_key").on(t.keyHash), index("api_keys_user_id_idx").on(t.userId)],
);

export type ApiKey = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;
