import { integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export type OrganizationSettings = {
  brandColor?: string;
  /** An https:// logo used in emails when no logo file is uploaded (pages show only uploaded logos). */
  logoUrl?: string;
  /** The name borrowers see ("<displayName> via <product>"); the organization's name when unset. */
  displayName?: string;
  supportEmail?: string;
  supportPhone?: string;
  /** A short line at the foot of signer pages and emails (a licence number, an address). */
  footer?: string;
  /** The language of signers' pages and emails when a signer has none set; English when unset. */
  defaultLanguage?: "en" | "es";
  defaultFlowId?: string | null;
  reminderCadenceDays?: number;
  packageExpiryDays?: number;
  /** The origins (https; loopback http outside production) allowed to frame embedded signing pages. */
  embedAllowedOrigins?: string[];
};

/** Organizations, companies and locations use integer ids: the spec's `locationId` is an integer. */
export const organizations = pgTable(
  "organizations",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    settings: jsonb("settings").$type<OrganizationSettings>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("organizations_slug_key").on(t.slug)],
);

export type Organization = typeof organizations.$inferSelect;
export type NewOrganization = typeof organizations.$inferInsert;
