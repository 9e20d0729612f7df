import { check, index, integer, pgEnum, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { companies } from "./companies";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { locations } from "./locations";
import { organizations } from "./organizations";
import { users } from "./users";

export const roleEnum = pgEnum("role", ["signer", "manager", "org_admin", "admin"]);

/**
 * A role assignment: user × scope × role. The scope is the narrowest id set: a location, a company,
 * or the whole organization. `admin` is global and carries no organization.
 * An invitation is pending until the person accepts it (`acceptedAt` null): until then the
 * organization sees the address and name its inviter typed (`invitedEmail`, `invitedName`), never
 * the user's own profile, which may belong to another organization's member.
 */
export const memberships = pgTable(
  "memberships",
  {
    id: idColumn(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: roleEnum("role").notNull(),
    organizationId: integer("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    companyId: integer("company_id").references(() => companies.id, { onDelete: "cascade" }),
    locationId: integer("location_id").references(() => locations.id, { onDelete: "cascade" }),
    invitedEmail: text("invited_email"),
    invitedName: text("invited_name"),
    acceptedAt: timestampTz("accepted_at").defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("memberships_user_id_idx").on(t.userId),
    index("memberships_organization_id_idx").on(t.organizationId),
    unique("memberships_assignment_key")
      .on(t.userId, t.role, t.organizationId, t.companyId, t.locationId)
      .nullsNotDistinct(),
    check(
      "memberships_scope_check",
      sql`(${t.role} = 'admin' and ${t.organizationId} is null and ${t.companyId} is null and ${t.locationId} is null)
        or (${t.role} <> 'admin' and ${t.organizationId} is not null and (${t.locationId} is null or ${t.companyId} is not null))`,
    ),
  ],
);

export type Membership = typeof memberships.$inferSelect;
export type NewMembership = typeof memberships.$inferInsert;
export type Role = (typeof roleEnum.enumValues)[number];
