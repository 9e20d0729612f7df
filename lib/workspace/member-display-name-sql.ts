import { sql, type SQL } from "drizzle-orm";
import { memberships } from "@/db/schema";

// Qualified by hand: drizzle leaves columns unqualified in a one-table select, where `id` inside
// the subqueries would then mean the membership's id.
const USER_ID = sql.raw(`"users"."id"`);
const USER_NAME = sql.raw(`"users"."name"`);
const USER_EMAIL = sql.raw(`"users"."email"`);

/**
 * The name one organization may show for a user (selected from `users`, not aliased): their own name once
 * they are an accepted member of it (or a global admin), otherwise what the inviter typed (name,
 * else address) — a pending invitee may be another organization's user, whose profile is not
 * this organization's to read.
 */
export function memberDisplayNameSql(organizationId: number | SQL): SQL<string> {
  return sql<string>`case
    when exists (
      select 1 from ${memberships} m
      where m.user_id = ${USER_ID} and m.accepted_at is not null
        and (m.organization_id = ${organizationId} or m.role = 'admin')
    ) then ${USER_NAME}
    else coalesce(
      (select coalesce(m.invited_name, m.invited_email) from ${memberships} m
        where m.user_id = ${USER_ID} and m.organization_id = ${organizationId}
        order by m.created_at limit 1),
      ${USER_EMAIL})
  end`;
}
