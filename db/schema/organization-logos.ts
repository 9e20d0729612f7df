import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { storedFileColumns } from "./stored-file-columns";

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
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  ...storedFileColumns(),
});

export type OrganizationLogo = typeof organizationLogos.$inferSelect;
