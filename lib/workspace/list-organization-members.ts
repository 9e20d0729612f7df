import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { decodeCursor, toPage, type Page } from "@/lib/api/pagination";
import type { Principal } from "@/lib/auth/principal";
import { resolveOrganizationId } from "./resolve-organization-id";
import { serializeMembership, type MembershipJson } from "./serialize-membership";

/** Every role assignment in an organization, for its org admins. */
export async function listOrganizationMembers(
  db: Db,
  options: { principal: Principal; organizationId?: number; limit: number; cursor?: string },
): Promise<Page<MembershipJson>> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "memberships:read",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to read the organization's members.",
  });
  const conditions: SQL[] = [eq(memberships.organizationId, organizationId)];
  if (options.cursor) conditions.push(gt(memberships.id, decodeCursor(options.cursor, z.tuple([z.uuid()]))[0]));
  const rows = await db
    .select({ membership: memberships, user: { id: users.id, email: users.email, name: users.name, lastSignInAt: users.lastSignInAt } })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(...conditions))
    .orderBy(asc(memberships.id))
    .limit(options.limit + 1);
  return toPage(rows, options.limit, (row) => [row.membership.id], (row) => serializeMembership({ ...row.membership, user: row.user }));
}
