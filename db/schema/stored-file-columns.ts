import { integer, text, uuid } from "drizzle-orm/pg-core";
import { bytea, createdAt } from "./columns";
import { users } from "./users";

/** Where a stored file's bytes are. */
export const FILE_STORAGE_KINDS = ["database", "s3"] as const;

/**
 * The columns of an uploaded file kept like every stored file (chattel document files, organization
 * logos): its size and SHA-256, where the bytes are (`database`: inline in `content`; `s3`: the
 * object `storage_key`), who uploaded it and when. The table adds what the file is for and its
 * `content_type` (the accepted types differ).
 */
export const storedFileColumns = () => ({
  sizeBytes: integer("size_bytes").notNull(),
  sha256: text("sha256").notNull(),
  storage: text("storage", { enum: FILE_STORAGE_KINDS }).notNull(),
  storageKey: text("storage_key"),
  content: bytea("content"),
  uploadedByUserId: uuid("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});
