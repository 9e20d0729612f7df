import { boolean, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { packageSigners } from "./package-signers";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

/**
 * What the sender asks one signer of a package to provide ("Driver's license, front and back",
 * "Proof of insurance"), required or optional. A required request blocks the package's completion
 * until one of its attachments is accepted.
 */
export const attachmentRequests = pgTable(
  "attachment_requests",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => packageSigners.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    required: boolean("required").notNull().default(true),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("attachment_requests_package_id_idx").on(t.packageId), index("attachment_requests_signer_id_idx").on(t.signerId)],
);

export const ATTACHMENT_STATUSES = ["pending", "accepted", "rejected"] as const;
export type AttachmentStatus = (typeof ATTACHMENT_STATUSES)[number];

/**
 * One file a signer added to a request, as kept: always a PDF (an image becomes an upright,
 * metadata-free PDF page), an object in file storage named by its SHA-256 like every other file.
 * A manager accepts or rejects it (with a reason); a rejected one stays, and the signer adds another.
 */
export const signerAttachments = pgTable(
  "signer_attachments",
  {
    id: idColumn(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => attachmentRequests.id, { onDelete: "cascade" }),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => packageSigners.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    /** What the signer sent (`image/jpeg`, `image/png`, `image/heic`, `application/pdf`), read from its bytes. */
    sourceType: text("source_type").notNull(),
    storageKey: text("storage_key").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    pageCount: integer("page_count").notNull(),
    status: text("status", { enum: ATTACHMENT_STATUSES }).notNull().default("pending"),
    rejectReason: text("reject_reason"),
    reviewedByUserId: uuid("reviewed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestampTz("reviewed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("signer_attachments_request_id_idx").on(t.requestId), index("signer_attachments_package_id_idx").on(t.packageId)],
);

export type AttachmentRequest = typeof attachmentRequests.$inferSelect;
export type SignerAttachment = typeof signerAttachments.$inferSelect;
