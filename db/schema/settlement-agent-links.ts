import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz } from "./columns";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

/**
 * A settlement agent's one-time link to one package's closing, and the session it is exchanged for.
 * The token (32 random bytes, base64url) exists only in the email and the session value only in the
 * agent's httpOnly cookie; only their SHA-256 is stored. The link works once (`used_at`), until
 * `expires_at` (the appointment plus 7 days), and not after `revoked_at` (the manager revoked it, a
 * newer link was issued). At most one live link per package.
 */
export const settlementAgentLinks = pgTable(
  "settlement_agent_links",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    agentName: text("agent_name").notNull(),
    agentEmail: text("agent_email").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestampTz("expires_at").notNull(),
    usedAt: timestampTz("used_at"),
    sessionHash: text("session_hash"),
    sessionExpiresAt: timestampTz("session_expires_at"),
    lastSeenAt: timestampTz("last_seen_at"),
    revokedAt: timestampTz("revoked_at"),
    issuedByUserId: uuid("issued_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("settlement_agent_links_token_hash_key").on(t.tokenHash),
    uniqueIndex("settlement_agent_links_session_hash_key").on(t.sessionHash),
    index("settlement_agent_links_package_id_idx").on(t.packageId, t.createdAt),
  ],
);

export type SettlementAgentLink = typeof settlementAgentLinks.$inferSelect;
