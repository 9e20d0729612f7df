import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "./columns";
import type { FlowStep } from "../values/flow-step-values";
import { organizations } from "./organizations";

export { FLOW_STEPS, type FlowStep } from "../values/flow-step-values";

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
