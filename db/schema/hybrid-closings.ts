import { index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { packageDocuments } from "./package-documents";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

/**
 * The accepted-or-pending scan of one ink document (`wet_sign`/`notarize`): a PDF assembled from the
 * scanned pages in page order. One row per document; a new scan after a rejection replaces it (the
 * audit trail keeps every scan's SHA-256 and the review decisions).
 */
export const documentScans = pgTable(
  "document_scans",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    documentId: uuid("document_id")
      .notNull()
      .references(() => packageDocuments.id, { onDelete: "cascade" }),
    storageKey: text("storage_key").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    pageCount: integer("page_count").notNull(),
    uploadedByUserId: uuid("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    reviewedByUserId: uuid("reviewed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestampTz("reviewed_at"),
    rejectReason: text("reject_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("document_scans_document_id_key").on(t.documentId), index("document_scans_package_id_idx").on(t.packageId)],
);

export const scanbackPageOutcomeEnum = pgEnum("scanback_page_outcome", ["matched", "duplicate", "other_package", "unreadable", "assigned"]);

/**
 * One scanned page as uploaded, before it is attached to its document: the page image (PNG or JPEG,
 * upright), what its QR code said, and how it matched. `attachedAt` is set when the page went into a
 * document's scan; unattached pages make up the open scanback report.
 */
export const scanbackPages = pgTable(
  "scanback_pages",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    uploadId: uuid("upload_id").notNull(),
    sourceName: text("source_name").notNull(),
    sourcePage: integer("source_page").notNull(),
    imageStorageKey: text("image_storage_key").notNull(),
    imageSizeBytes: integer("image_size_bytes").notNull(),
    imageSha256: text("image_sha256").notNull(),
    contentType: text("content_type").notNull(),
    outcome: scanbackPageOutcomeEnum("outcome").notNull(),
    documentId: uuid("document_id").references(() => packageDocuments.id, { onDelete: "cascade" }),
    pageNumber: integer("page_number"),
    uploadedByUserId: uuid("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    attachedAt: timestampTz("attached_at"),
    createdAt: createdAt(),
  },
  (t) => [index("scanback_pages_package_id_idx").on(t.packageId, t.createdAt)],
);

export type DocumentScan = typeof documentScans.$inferSelect;
export type ScanbackPage = typeof scanbackPages.$inferSelect;
export type ScanbackPageOutcome = (typeof scanbackPageOutcomeEnum.enumValues)[number];
