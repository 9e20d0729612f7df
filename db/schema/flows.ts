import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "./columns";
import { organizations } from "./organizations";

export const FLOW_STEPS = ["review", "sign", "link_bank", "upload_documents", "done"] as const;
export type FlowStep = (typeof FLOW_STEPS)[number];

/** The ordered steps a signer goes through, e.g. review → sign → link bank → done. */
export const flows = pgTable(
  "flows",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    steps: jsonb("steps").$type<FlowStep[]>().notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("flows_organization_id_idx").on(t.organizationId)],
);

export type Flow = typeof flows.$inferSelect;
export type NewFlow = typeof flows.$inferInsert;
