import { bigint, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

/**
 * Append-only audit trail. Entries of one package are hash-chained: `hash` covers the entry and
 * `prevHash`, so editing or removing an entry breaks every hash after it.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer("organization_id"),
    packageId: uuid("package_id").references(() => signingPackages.id, { onDelete: "set null" }),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
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
