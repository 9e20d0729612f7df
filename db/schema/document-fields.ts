import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, pgEnum, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { packageDocuments } from "./package-documents";
import { packageSigners } from "./package-signers";
import { signingPackages } from "./signing-packages";
import { FIELD_TYPE_VALUES } from "../values/field-type-values";
import { templateDocuments, templates } from "./templates";

export const fieldTypeEnum = pgEnum("field_type", FIELD_TYPE_VALUES);

/**
 * A field placed on a document page, for one signer of a package or one role of a template.
 * Position and size are in PDF user space of that page (points, origin at the page's bottom-left,
 * after the page's CropBox offset), so they do not depend on zoom or screen size.
 *
 * `value` is what gets stamped: the text for `text`, `"true"`/`"false"` for `checkbox`, the date as
 * shown to the signer for `date_signed`, the name as shown for `full_name`, the initials text for
 * `initials` (drawn in the signer's signature font). `signature` fields stay null: they are drawn
 * from the signer's e-signature on that document (image or typed text and font).
 */
export const documentFields = pgTable(
  "document_fields",
  {
    id: idColumn(),
    packageId: uuid("package_id").references(() => signingPackages.id, { onDelete: "cascade" }),
    documentId: uuid("document_id").references(() => packageDocuments.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id").references(() => packageSigners.id, { onDelete: "cascade" }),
    templateId: uuid("template_id").references(() => templates.id, { onDelete: "cascade" }),
    templateDocumentId: uuid("template_document_id").references(() => templateDocuments.id, { onDelete: "cascade" }),
    templateRoleKey: text("template_role_key"),
    type: fieldTypeEnum("type").notNull(),
    page: integer("page").notNull(),
    x: doublePrecision("x").notNull(),
    y: doublePrecision("y").notNull(),
    width: doublePrecision("width").notNull(),
    height: doublePrecision("height").notNull(),
    required: boolean("required").notNull().default(true),
    label: text("label"),
    value: text("value"),
    filledAt: timestampTz("filled_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("document_fields_document_id_idx").on(t.documentId),
    index("document_fields_package_id_idx").on(t.packageId),
    index("document_fields_template_document_id_idx").on(t.templateDocumentId),
    check(
      "document_fields_owner_check",
      sql`(${t.packageId} is not null and ${t.documentId} is not null and ${t.signerId} is not null and ${t.templateId} is null)
        or (${t.templateId} is not null and ${t.templateDocumentId} is not null and ${t.templateRoleKey} is not null and ${t.packageId} is null)`,
    ),
    check("document_fields_geometry_check", sql`${t.page} >= 1 and ${t.width} > 0 and ${t.height} > 0 and ${t.x} >= 0 and ${t.y} >= 0`),
  ],
);

export type DocumentField = typeof documentFields.$inferSelect;
export type NewDocumentField = typeof documentFields.$inferInsert;
export type FieldType = (typeof fieldTypeEnum.enumValues)[number];
