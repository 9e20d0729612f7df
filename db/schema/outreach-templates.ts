import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "./columns";
import { organizations } from "./organizations";

/**
 * An organization's override of the built-in outreach template for one purpose
 * (`lib/outreach/outreach-templates.ts` holds the built-ins). Deleting the row restores the built-in.
 */
export const outreachTemplates = pgTable(
  "outreach_templates",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["request_document", "remind_unsigned", "custom"] }).notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("outreach_templates_organization_purpose_key").on(t.organizationId, t.purpose)],
);

export type OutreachTemplate = typeof outreachTemplates.$inferSelect;
export type NewOutreachTemplate = typeof outreachTemplates.$inferInsert;
