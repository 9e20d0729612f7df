import { boolean, index, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn } from "./columns";
import { packageDocuments, signatureRequests } from "./package-documents";
import { packageSigners } from "./package-signers";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

export const signatureKindEnum = pgEnum("signature_kind", ["drawn", "typed"]);

/**
 * An e-signature record: append-only evidence. The unique index on `signature_request_id` is what
 * makes a retried or concurrent request return the existing record instead of creating a second one.
 */
export const eSignatures = pgTable(
  "e_signatures",
  {
    id: idColumn(),
    signatureRequestId: uuid("signature_request_id")
      .notNull()
      .references(() => signatureRequests.id, { onDelete: "restrict" }),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "restrict" }),
    documentId: uuid("document_id")
      .notNull()
      .references(() => packageDocuments.id, { onDelete: "restrict" }),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => packageSigners.id, { onDelete: "restrict" }),
    /** The signer's account; null for a signer who signed from an emailed link without one. */
    authUserId: uuid("auth_user_id").references(() => users.id, { onDelete: "restrict" }),
    kind: signatureKindEnum("kind").notNull(),
    imageDataUrl: text("image_data_url"),
    typedText: text("typed_text"),
    typedFont: text("typed_font"),
    consentGiven: boolean("consent_given").notNull(),
    documentSha256: text("document_sha256").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("e_signatures_signature_request_id_key").on(t.signatureRequestId),
    uniqueIndex("e_signatures_idempotency_key").on(t.authUserId, t.idempotencyKey),
    index("e_signatures_package_id_idx").on(t.packageId),
    index("e_signatures_auth_user_id_idx").on(t.authUserId),
  ],
);

export type ESignature = typeof eSignatures.$inferSelect;
export type NewESignature = typeof eSignatures.$inferInsert;
