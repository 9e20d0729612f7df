import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz } from "./columns";
import { packageSigners } from "./package-signers";
import { signerSessions } from "./signer-access";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

/**
 * Embedded signing URLs (`/embed/<token>`): issued through `/v1` for one signer of a sent package,
 * to be framed by the lender's own site. The token exists only in the API's answer; only its SHA-256
 * is stored. Usable once (`used_at`, with the session it opened) and for a few minutes (`expires_at`).
 */
export const embeddedSigningTokens = pgTable(
  "embedded_signing_tokens",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => packageSigners.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    issuedByUserId: uuid("issued_by_user_id").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestampTz("expires_at").notNull(),
    usedAt: timestampTz("used_at"),
    sessionId: uuid("session_id").references(() => signerSessions.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("embedded_signing_tokens_token_hash_key").on(t.tokenHash), index("embedded_signing_tokens_signer_id_idx").on(t.signerId)],
);

export type EmbeddedSigningToken = typeof embeddedSigningTokens.$inferSelect;
