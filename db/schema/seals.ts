import { index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { packageDocuments } from "./package-documents";
import { signingPackages } from "./signing-packages";

export const sealStatusEnum = pgEnum("seal_status", ["pending", "sealed", "failed"]);

/**
 * Sealing of a completed package: one row per package, written when it completes. `failed` is
 * visible to managers; the job retries with backoff. `auditHeadHash` is the audit chain's head at
 * completion, printed on the certificate.
 */
export const packageSeals = pgTable(
  "package_seals",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    status: sealStatusEnum("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    auditHeadHash: text("audit_head_hash"),
    certificateStorageKey: text("certificate_storage_key"),
    certificateSha256: text("certificate_sha256"),
    sealedAt: timestampTz("sealed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("package_seals_package_id_key").on(t.packageId)],
);

/** The sealed (stamped, certified, digitally signed) copy of one package document; exactly one per document. */
export const sealedDocuments = pgTable(
  "sealed_documents",
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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("sealed_documents_document_id_key").on(t.documentId),
    index("sealed_documents_package_id_idx").on(t.packageId),
    index("sealed_documents_sha256_idx").on(t.sha256),
  ],
);

export type PackageSeal = typeof packageSeals.$inferSelect;
export type SealedDocument = typeof sealedDocuments.$inferSelect;
