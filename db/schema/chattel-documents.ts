import { index, integer, jsonb, pgEnum, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "./columns";
import { companies } from "./companies";
import { locations } from "./locations";
import { organizations } from "./organizations";
import { signingPackages } from "./signing-packages";
import { storedFileColumns } from "./stored-file-columns";
import { users } from "./users";

export const chattelDocumentTypeEnum = pgEnum("chattel_document_type", [
  "retail_installment_contract",
  "certificate_of_title",
  "manufacturer_certificate_of_origin",
  "bill_of_sale",
  "lien_release",
  "other",
]);

export const chattelDocumentStatusEnum = pgEnum("chattel_document_status", [
  "requested",
  "received",
  "under_review",
  "accepted",
  "rejected",
]);

/** A co-borrower or dealer contact who can receive outreach about the document. */
export type DocumentContact = { name: string | null; email: string };

/** A record about financed movable collateral (a manufactured home, a vehicle) and its paperwork. */
export const chattelDocuments = pgTable(
  "chattel_documents",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    companyId: integer("company_id").references(() => companies.id, { onDelete: "set null" }),
    locationId: integer("location_id").references(() => locations.id, { onDelete: "set null" }),
    signingPackageId: uuid("signing_package_id").references(() => signingPackages.id, { onDelete: "set null" }),
    type: chattelDocumentTypeEnum("type").notNull(),
    status: chattelDocumentStatusEnum("status").notNull().default("requested"),
    title: text("title").notNull(),
    borrowerName: text("borrower_name"),
    borrowerEmail: text("borrower_email"),
    coBorrowers: jsonb("co_borrowers").$type<DocumentContact[]>().notNull().default([]),
    dealerContacts: jsonb("dealer_contacts").$type<DocumentContact[]>().notNull().default([]),
    collateralMake: text("collateral_make"),
    collateralModel: text("collateral_model"),
    collateralYear: integer("collateral_year"),
    collateralSerial: text("collateral_serial"),
    notes: text("notes"),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("chattel_documents_organization_id_idx").on(t.organizationId, t.id),
    index("chattel_documents_serial_idx").on(t.collateralSerial),
  ],
);

export const chattelDocumentFiles = pgTable(
  "chattel_document_files",
  {
    id: idColumn(),
    chattelDocumentId: uuid("chattel_document_id")
      .notNull()
      .references(() => chattelDocuments.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    ...storedFileColumns(),
  },
  (t) => [index("chattel_document_files_document_id_idx").on(t.chattelDocumentId)],
);

export type ChattelDocument = typeof chattelDocuments.$inferSelect;
export type NewChattelDocument = typeof chattelDocuments.$inferInsert;
export type ChattelDocumentFile = typeof chattelDocumentFiles.$inferSelect;
