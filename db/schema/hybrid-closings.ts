import { index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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
    /** The scan (one upload, processed in chunks) this page was read from, and its place in it (0-based, across the scan's files). */
    scanId: uuid("scan_id").references(() => scanbackScans.id, { onDelete: "set null" }),
    scanIndex: integer("scan_index"),
    createdAt: createdAt(),
  },
  (t) => [
    index("scanback_pages_package_id_idx").on(t.packageId, t.createdAt),
    // A page of a scan is read once: a chunk run again after a crash skips the pages already stored.
    uniqueIndex("scanback_pages_scan_page_key").on(t.scanId, t.scanIndex),
  ],
);

export const scanbackScanStatusEnum = pgEnum("scanback_scan_status", ["queued", "processing", "done", "failed"]);

/**
 * One scanback upload as a unit of background work: its files are stored as they came, then read in
 * chunks of `chunkSize` pages (one Inngest step, or one local job run, each), every page stored as a
 * `scanback_pages` row the moment it is read. `processedPages` counts those rows; a chunk run again
 * after a crash or a frozen instance takes up the pages not yet stored. `uploadId` is the pages'
 * `upload_id`.
 */
export const scanbackScans = pgTable(
  "scanback_scans",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id").notNull(),
    uploadId: uuid("upload_id").notNull(),
    status: scanbackScanStatusEnum("status").notNull().default("queued"),
    totalPages: integer("total_pages").notNull(),
    processedPages: integer("processed_pages").notNull().default(0),
    chunkSize: integer("chunk_size").notNull(),
    /** Why the scan stopped (a page over its time or memory budget, a damaged file), for the person who uploaded it. */
    error: text("error"),
    uploadedByUserId: uuid("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Who uploaded it when that is not a user (a settlement agent), and from where: for the audit entry written when the scan is done. */
    audit: jsonb("audit").$type<{ actor?: { type: "settlement_agent"; name: string; linkId: string }; ipAddress?: string | null }>().notNull().default({}),
    finishedAt: timestampTz("finished_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("scanback_scans_package_id_idx").on(t.packageId, t.createdAt)],
);

/** The files of a scan as uploaded (stored objects), in order; `firstIndex` is the scan index of the file's first page. */
export const scanbackScanFiles = pgTable(
  "scanback_scan_files",
  {
    id: idColumn(),
    scanId: uuid("scan_id")
      .notNull()
      .references(() => scanbackScans.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["pdf", "png", "jpeg"] }).notNull(),
    storageKey: text("storage_key").notNull(),
    pageCount: integer("page_count").notNull(),
    firstIndex: integer("first_index").notNull(),
  },
  (t) => [uniqueIndex("scanback_scan_files_scan_position_key").on(t.scanId, t.position), index("scanback_scan_files_storage_key_idx").on(t.storageKey)],
);

export type DocumentScan = typeof documentScans.$inferSelect;
export type ScanbackPage = typeof scanbackPages.$inferSelect;
export type ScanbackScan = typeof scanbackScans.$inferSelect;
export type ScanbackScanFile = typeof scanbackScanFiles.$inferSelect;
export type ScanbackPageOutcome = (typeof scanbackPageOutcomeEnum.enumValues)[number];
