import { index, integer, pgEnum, pgTable, text, uniqueIndex, uuid, boolean } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { documentExecutionStatusEnum, executionModeEnum } from "./execution-modes";
import { packageSigners } from "./package-signers";
import { signingPackages } from "./signing-packages";

/** A PDF in a signing package. The bytes are an object in file storage; `sha256` is what signers attest to. */
export const packageDocuments = pgTable(
  "package_documents",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    contentType: text("content_type").notNull().default("application/pdf"),
    /** The object holding the bytes (`lib/storage/objects`), content-addressed: `sha256/<hex>`. */
    storageKey: text("storage_key").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    pageCount: integer("page_count").notNull(),
    position: integer("position").notNull().default(0),
    /** How the document is executed, and where it stands (hybrid closings). */
    executionMode: executionModeEnum("execution_mode").notNull().default("esign"),
    executionStatus: documentExecutionStatusEnum("execution_status").notNull().default("pending"),
    /**
     * A transferable record (electronic chattel paper, a transferable promissory note): once sealed,
     * its sealed PDF is the one authoritative copy under the sending organization's control
     * (`transferable_records`).
     */
    transferable: boolean("transferable").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("package_documents_package_id_idx").on(t.packageId)],
);

export const signatureRequestStatusEnum = pgEnum("signature_request_status", ["pending", "signed", "declined"]);

/** One signature a signer owes on one document. An e-signature fulfils exactly one request. */
export const signatureRequests = pgTable(
  "signature_requests",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    documentId: uuid("document_id")
      .notNull()
      .references(() => packageDocuments.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => packageSigners.id, { onDelete: "cascade" }),
    required: boolean("required").notNull().default(true),
    status: signatureRequestStatusEnum("status").notNull().default("pending"),
    signedAt: timestampTz("signed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("signature_requests_document_signer_key").on(t.documentId, t.signerId),
    index("signature_requests_package_id_idx").on(t.packageId),
  ],
);

export type PackageDocument = typeof packageDocuments.$inferSelect;
export type NewPackageDocument = typeof packageDocuments.$inferInsert;
export type SignatureRequest = typeof signatureRequests.$inferSelect;
export type NewSignatureRequest = typeof signatureRequests.$inferInsert;
