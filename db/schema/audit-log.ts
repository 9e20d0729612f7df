import { bigint, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * Append-only audit trail. Entries of one package are hash-chained: `hash` covers the entry and
 * `prevHash`, so editing or removing an entry breaks every hash after it.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer("organization_id"),
    // No foreign keys here: the trail outlives what it describes (a deleted draft keeps its entries),
    // and these ids are part of every entry's hash, so nothing may ever rewrite them.
    packageId: uuid("package_id"),
    actorUserId: uuid("actor_user_id"),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    ipAddress: text("ip_address"),
    before: jsonb("before"),
    after: jsonb("after"),
    prevHash: text("prev_hash"),
    hash: text("hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_package_id_idx").on(t.packageId, t.id), index("audit_log_organization_id_idx").on(t.organizationId)],
);

export type AuditEntry = typeof auditLog.$inferSelect;
export type NewAuditEntry = typeof auditLog.$inferInsert;
