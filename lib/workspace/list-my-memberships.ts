import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, organizations } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";

export type MyMembershipJson = {
  id: string;
  role: "signer" | "manager" | "org_admin" | "admin";
  organization: { id: number; name: string; slug: string } | null;
  companyId: number | null;
  locationId: number | null;
};

/** The caller's own role assignments with their organizations (null for the global admin role). */
export async function listMyMemberships(db: Db, options: { principal: Principal }): Promise<MyMembershipJson[]> {
  const rows = await db
    .select({ membership: memberships, organization: { id: organizations.id, name: organizations.name, slug: organizations.slug } })
    .from(memberships)
    .leftJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, options.principal.user.id))
    .orderBy(asc(memberships.organizationId), asc(memberships.id));
  return rows.map(({ membership, organization }) => ({
    id: membership.id,
    role: membership.role,
    organization,
    companyId: membership.companyId,
    locationId: membership.locationId,
  }));
}
