import { index, integer, pgTable, text, uniqueIndex, uuid, type PgColumn } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz } from "./columns";
import { packageSigners } from "./package-signers";
import { signerAuthMethodEnum } from "./signer-auth-method";
import { signingPackages } from "./signing-packages";

/**
 * What a link and a session have in common: a secret held by one signer of one package, of which
 * only the SHA-256 is stored (the table adds that hash column), ended early by `revoked_at`.
 */
const signerTokenColumns = () => ({
  id: idColumn(),
  packageId: uuid("package_id")
    .notNull()
    .references(() => signingPackages.id, { onDelete: "cascade" }),
  signerId: uuid("signer_id")
    .notNull()
    .references(() => packageSigners.id, { onDelete: "cascade" }),
  revokedAt: timestampTz("revoked_at"),
  createdAt: createdAt(),
});

/** A token is found by its hash (unique) and a signer's tokens are revoked together. */
const signerTokenIndexes = (table: string, hash: { column: PgColumn; name: string }, signerId: PgColumn) => [
  uniqueIndex(`${table}_${hash.name}_key`).on(hash.column),
  index(`${table}_signer_id_idx`).on(signerId),
];

/**
 * Per-signer access links. The token (32 random bytes, base64url) exists only in the email; only
 * its SHA-256 is stored. A link works once (`used_at`), until the package's expiry, and not after
 * `revoked_at` (signer removed or replaced, package closed, a newer link sent).
 */
export const signerAccessLinks = pgTable(
  "signer_access_links",
  {
    ...signerTokenColumns(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestampTz("expires_at"),
    usedAt: timestampTz("used_at"),
    /** The last "Email me a new link" asked with this link: the throttle of that request. */
    renewRequestedAt: timestampTz("renew_requested_at"),
  },
  (t) => signerTokenIndexes("signer_access_links", { column: t.tokenHash, name: "token_hash" }, t.signerId),
);

/**
 * A signer session: what the link's POST exchanges the token for. The cookie holds a random value;
 * only its SHA-256 is stored. Bound to one signer of one package; idle after 30 minutes, ended
 * after 12 hours. `auth_passed_at` / `auth_method` say whether and how the signer proved who they
 * are in this session (until then the session opens only the proof page).
 */
export const signerSessions = pgTable(
  "signer_sessions",
  {
    ...signerTokenColumns(),
    sessionHash: text("session_hash").notNull(),
    linkId: uuid("link_id")
      .notNull()
      .references(() => signerAccessLinks.id, { onDelete: "cascade" }),
    authPassedAt: timestampTz("auth_passed_at"),
    authMethod: signerAuthMethodEnum("auth_method"),
    lastSeenAt: timestampTz("last_seen_at").notNull().defaultNow(),
    expiresAt: timestampTz("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (t) => signerTokenIndexes("signer_sessions", { column: t.sessionHash, name: "session_hash" }, t.signerId),
);

/**
 * One-time codes (email or SMS) for a signer session: 6 digits, only an HMAC under the auth secret
 * stored, valid 10 minutes, re-sent at most once a minute. Wrong tries are counted per signer in
 * `auth_throttles` (5 then a 15-minute lock).
 */
export const signerAuthChallenges = pgTable(
  "signer_auth_challenges",
  {
    id: idColumn(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => signerSessions.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => packageSigners.id, { onDelete: "cascade" }),
    method: signerAuthMethodEnum("method").notNull(),
    codeHmac: text("code_hmac").notNull(),
    expiresAt: timestampTz("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    consumedAt: timestampTz("consumed_at"),
    createdAt: createdAt(),
  },
  (t) => [index("signer_auth_challenges_session_id_idx").on(t.sessionId)],
);

export type SignerAccessLink = typeof signerAccessLinks.$inferSelect;
export type SignerSession = typeof signerSessions.$inferSelect;
export type SignerAuthChallenge = typeof signerAuthChallenges.$inferSelect;
