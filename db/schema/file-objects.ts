import { bigint, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { bytea, createdAt, idColumn } from "./columns";
import { organizations } from "./organizations";
import { users } from "./users";

/**
 * The embedded default's object store: one immutable object per distinct content, keyed like an S3
 * object (`sha256/<hex>`). Empty when S3 storage is configured (and after `npm run storage:migrate`),
 * since the objects then live in the bucket. File rows (package, template and sealed documents,
 * certificates, scans, scanback pages) refer to an object by its key and never hold bytes.
 */
export const fileObjects = pgTable("file_objects", {
  key: text("key").primaryKey(),
  sha256: text("sha256").notNull(),
  sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
  contentType: text("content_type").notNull(),
  content: bytea("content").notNull(),
  createdAt: createdAt(),
});

/**
 * A direct upload: what the client declared (name, size, type, SHA-256) when it asked for a
 * presigned upload, and when that upload was verified and attached. The bytes go straight to
 * storage under `storage_key`; an upload never attached expires at `expires_at`.
 */
export const uploads = pgTable(
  "uploads",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    attachedAt: timestamp("attached_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("uploads_expires_at_idx").on(t.expiresAt)],
);

export type FileObject = typeof fileObjects.$inferSelect;
export type Upload = typeof uploads.$inferSelect;
