import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz } from "./columns";
import { packageSigners } from "./package-signers";
import { signerSessions } from "./signer-access";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

/** The kinds of identification a host records when a signer signs in person. */
export const IDENTIFICATION_TYPES = ["drivers_license", "passport", "state_id", "military_id", "other"] as const;
export type IdentificationType = (typeof IDENTIFICATION_TYPES)[number];

/**
 * A signer signing at the lender's desk: a manager (the host) checked the signer's identification
 * (its kind, who issued it and its last four characters, never the whole number), started a signer
 * session for that one signer on the device in front of them, and handed it over (`ended_at` when
 * the device came back or the session was ended). The certificate and the audit trail name the host
 * and the identification.
 */
export const inPersonSignings = pgTable(
  "in_person_signings",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => packageSigners.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => signerSessions.id, { onDelete: "cascade" }),
    hostUserId: uuid("host_user_id").references(() => users.id, { onDelete: "set null" }),
    hostName: text("host_name").notNull(),
    hostEmail: text("host_email").notNull(),
    idType: text("id_type", { enum: IDENTIFICATION_TYPES }).notNull(),
    idIssuer: text("id_issuer").notNull(),
    idLastFour: text("id_last_four").notNull(),
    startedAt: createdAt(),
    endedAt: timestampTz("ended_at"),
  },
  (t) => [index("in_person_signings_package_id_idx").on(t.packageId), index("in_person_signings_session_id_idx").on(t.sessionId)],
);

export type InPersonSigning = typeof inPersonSignings.$inferSelect;

/**
 * In-person signing URLs (`/in-person/<token>`), issued through `/v1` for an integrator's own desk
 * app: the host (the API key's user) checked the signer's identification and asks for a URL that,
 * opened on the device at the desk, starts the in-person session as the console's hand-over does. The
 * host and the identification are recorded when the URL is issued; the token exists only in the API's
 * answer (only its SHA-256 is stored). Usable once (`used_at`, with the session it opened) and for five
 * minutes (`expires_at`).
 */
export const inPersonSigningTokens = pgTable(
  "in_person_signing_tokens",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => packageSigners.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    hostUserId: uuid("host_user_id").references(() => users.id, { onDelete: "set null" }),
    hostName: text("host_name").notNull(),
    hostEmail: text("host_email").notNull(),
    idType: text("id_type", { enum: IDENTIFICATION_TYPES }).notNull(),
    idIssuer: text("id_issuer").notNull(),
    idLastFour: text("id_last_four").notNull(),
    expiresAt: timestampTz("expires_at").notNull(),
    usedAt: timestampTz("used_at"),
    sessionId: uuid("session_id").references(() => signerSessions.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("in_person_signing_tokens_token_hash_key").on(t.tokenHash), index("in_person_signing_tokens_signer_id_idx").on(t.signerId)],
);

export type InPersonSigningToken = typeof inPersonSigningTokens.$inferSelect;
