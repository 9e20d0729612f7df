import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { users } from "./users";

/** A linked bank item. The access token is AES-256-GCM ciphertext; never stored or logged in clear. */
export const bankItems = pgTable(
  "bank_items",
  {
    id: idColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    itemId: text("item_id").notNull(),
    institutionId: text("institution_id"),
    institutionName: text("institution_name"),
    accessTokenCiphertext: text("access_token_ciphertext").notNull(),
    health: text("health", {
      enum: ["healthy", "login_required", "pending_expiration", "pending_disconnect", "revoked", "error"],
    })
      .notNull()
      .default("healthy"),
    lastWebhookCode: text("last_webhook_code"),
    lastWebhookAt: timestampTz("last_webhook_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("bank_items_item_id_key").on(t.itemId), index("bank_items_user_id_idx").on(t.userId)],
);

export type BankItem = typeof bankItems.$inferSelect;
export type NewBankItem = typeof bankItems.$inferInsert;
