import { index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz } from "./columns";
import { organizations } from "./organizations";
import { users } from "./users";

/**
 * Single-use links that let a person invited with the local identity provider set their password
 * (`/accept-invite?token=…`). Only the SHA-256 of the token is stored; the token itself exists only
 * in the invitation email. A token is usable while `used_at` and `revoked_at` are null and
 * `expires_at` is in the future; a new invitation revokes the user's older unused tokens.
 * `organization_id` is the organization that sent the invitation (shown on the page).
 */
export const userInviteTokens = pgTable(
  "user_invite_tokens",
  {
    id: idColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestampTz("expires_at").notNull(),
    usedAt: timestampTz("used_at"),
    revokedAt: timestampTz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("user_invite_tokens_token_hash_key").on(t.tokenHash),
    index("user_invite_tokens_user_id_idx").on(t.userId),
  ],
);

export type UserInviteToken = typeof userInviteTokens.$inferSelect;
export type NewUserInviteToken = typeof userInviteTokens.$inferInsert;
