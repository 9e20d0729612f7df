import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, updatedAt } from "./columns";
import { organizations } from "./organizations";

/** A branch or dealership. `organizationId` is denormalized from the company for scope checks. */
export const locations = pgTable(
  "locations",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    addressLine1: text("address_line1"),
    city: text("city"),
    region: text("region"),
    postalCode: text("postal_code"),
    timezone: text("timezone").notNull().default("UTC"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("locations_company_id_idx").on(t.companyId), index("locations_organization_id_idx").on(t.organizationId)],
);

export type Location = typeof locations.$inferSelect;
export type NewLocation = typeof locations.$inferInsert;
