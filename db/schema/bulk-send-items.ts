import { integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { organizations } from "./organizations";
import { signingPackages } from "./signing-packages";

/**
 * One package of a bulk send: the batch id the bulk form minted, the CSV's package key (the
 * `package` cell, else `row <line>`) and the package created for it. The primary key is what makes a
 * resubmitted batch (after a timeout halfway, or a double click) create each package once: a row is
 * claimed in the package's own transaction before the package is created, so a second request for
 * the same key waits for the first and then skips it.
 */
export const bulkSendItems = pgTable(
  "bulk_send_items",
  {
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    batchId: uuid("batch_id").notNull(),
    packageKey: text("package_key").notNull(),
    /** Null only inside the claiming transaction, or when the package was deleted since. */
    packageId: uuid("package_id").references(() => signingPackages.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.batchId, t.packageKey] })],
);

export type BulkSendItem = typeof bulkSendItems.$inferSelect;
