import { bigint, pgTable, text } from "drizzle-orm/pg-core";
import { bytea, createdAt } from "./columns";

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

export type FileObject = typeof fileObjects.$inferSelect;
