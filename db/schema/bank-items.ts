import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { packageSigners } from "./package-signers";
import { users } from "./users";

/**
 * A linked bank item. The access token is AES-256-GCM ciphertext; never stored or logged in clear.
 * It belongs to an account user (`user_id`, linked while signed in) or to one signer of one package
 * (`signer_id`, linked in a signer session opened from an emailed link, with `user_id` also set when
 * that signer has an account); at least one of the two.
 */
export const bankItems = pgTable(
  "bank_items",
  {
    id: idColumn(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id").references(() => packageSigners.id, { onDelete: "cascade" }),
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
  (t) => [
    uniqueIndex("bank_items_item_id_key").on(t.itemId),
    index("bank_items_user_id_idx").on(t.userId),
    index("bank_items_signer_id_idx").on(t.signerId),
    check("bank_items_owner_check", sql`${t.userId} is not null or ${t.signerId} is not null`),
  ],
);

export type BankItem = typeof bankItems.$inferSelect;
export type NewBankItem = typeof bankItems.$inferInsert;
