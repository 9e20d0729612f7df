import { asc, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import type { Capability } from "@/lib/auth/capabilities";
import { scopesWith, type Principal } from "@/lib/auth/principal";

/**
 * The organizations in which the principal holds `capability` on the whole organization (the ones
 * `resolveOrganizationId` accepts), by name: the choices of the workspace's organization picker.
 */
export async function listAdministeredOrganizations(
  db: Db,
  options: { principal: Principal; capability: Capability },
): Promise<{ id: number; name: string }[]> {
  const ids = [
    ...new Set(scopesWith(options.principal, options.capability).flatMap((s) => (s.type === "organization" ? [s.organizationId] : []))),
  ];
  if (ids.length === 0) return [];
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(inArray(organizations.id, ids))
    .orderBy(asc(organizations.name), asc(organizations.id));
}
