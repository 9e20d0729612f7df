import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { memberships, users } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { cursorBinding, decodeKeyCursor } from "@/lib/pagination/keyset-cursor";
import { toKeysetPage, type KeysetPage } from "@/lib/pagination/keyset-page";
import type { MembershipWithUser } from "./get-organization-membership-or-throw";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";

/** Every role assignment in an organization, for its org admins. */
export async function listOrganizationMembers(
  db: Db,
  options: { principal: Principal; organizationId?: number; limit: number; cursor?: string },
): Promise<KeysetPage<MembershipWithUser>> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "memberships:read",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to read the organization's members.",
  });
  const conditions: SQL[] = [eq(memberships.organizationId, organizationId)];
  const binding = cursorBinding("organization-members", options);
  const after = decodeKeyCursor(options.cursor, z.uuid(), binding);
  if (after !== null) conditions.push(gt(memberships.id, after));
  const rows = await db
    .select({ membership: memberships, user: { id: users.id, email: users.email, name: users.name, lastSignInAt: users.lastSignInAt } })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(...conditions))
    .orderBy(asc(memberships.id))
    .limit(options.limit + 1);
  const page = toKeysetPage(rows, options.limit, (row) => [row.membership.id], binding);
  return { ...page, rows: page.rows.map((row) => ({ ...row.membership, user: row.user })) };
}
