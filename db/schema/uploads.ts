import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz } from "./columns";
import { packageSigners } from "./package-signers";
import { settlementAgentLinks } from "./settlement-agent-links";
import { users } from "./users";

/**
 * A direct upload (`POST /v1/uploads`): what the client declared (name, size, type, SHA-256), the
 * content-addressed key the bytes end at, and where the bytes go first (`staging_key` in the bucket,
 * or the app's own PUT endpoint, whose single-use token is kept only as its SHA-256). It belongs to
 * exactly one owner, whoever asked for it: a user (`created_by_user_id`: an API key's user, a manager's
 * page), one signer of one package (`signer_id`: that signer's session, from an emailed link or an
 * embedded signing), or one settlement agent's link (`agent_link_id`: the agent's session); only that
 * owner may verify or attach it. `verified_at` is set once the server has checked what arrived, and a
 * package or template document then refers to the object by `storage_key`. Rows past `expires_at`
 * are deleted by the upload sweep, with their object unless something else refers to it.
 */
export const uploads = pgTable(
  "uploads",
  {
    id: idColumn(),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id").references(() => packageSigners.id, { onDelete: "cascade" }),
    agentLinkId: uuid("agent_link_id").references(() => settlementAgentLinks.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    stagingKey: text("staging_key").notNull(),
    /** SHA-256 of the app endpoint's PUT token; null once used (or when the bytes go to S3). */
    tokenHash: text("token_hash"),
    pageCount: integer("page_count"),
    verifiedAt: timestampTz("verified_at"),
    expiresAt: timestampTz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("uploads_expires_at_idx").on(t.expiresAt),
    index("uploads_storage_key_idx").on(t.storageKey),
    check("uploads_one_owner_check", sql`num_nonnulls(${t.createdByUserId}, ${t.signerId}, ${t.agentLinkId}) = 1`),
  ],
);

export type Upload = typeof uploads.$inferSelect;
