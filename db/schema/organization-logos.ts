import { integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { bytea, createdAt } from "./columns";
import { organizations } from "./organizations";
import { users } from "./users";

/**
 * The organization's uploaded logo (one per organization, replaced on upload), kept like document
 * files: inline bytes in the database or an object in S3. Served from our origin at
 * `/branding/<organizationId>/logo`, so signer pages and the certificate never load another origin.
 */
export const organizationLogos = pgTable("organization_logos", {
  organizationId: integer("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  contentType: text("content_type", { enum: ["image/png", "image/jpeg"] }).notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  sha256: text("sha256").notNull(),
  storage: text("storage", { enum: ["database", "s3"] }).notNull(),
  storageKey: text("storage_key"),
  content: bytea("content"),
  uploadedByUserId: uuid("uploaded_by_user_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

export type OrganizationLogo = typeof organizationLogos.$inferSelect;
