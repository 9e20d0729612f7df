import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, type Organization } from "@/db/schema";
import type { Capability } from "@/lib/auth/capabilities";
import { canAccess, type Principal } from "@/lib/auth/principal";
import { reachesOrganization } from "@/lib/auth/reaches-organization";
import { Forbidden, NotFound } from "@/lib/errors";
import { isIntId } from "@/lib/ids";

/**
 * Loads an organization the caller holds a role in; 404 otherwise. With `organizationWide`, the
 * role granting `capability` must cover the whole organization (not one company or location): a
 * narrower role that can see the organization gets 403 with `forbiddenMessage`.
 */
export async function getOrganizationOrThrow(
  db: Db,
  options: { principal: Principal; organizationId: number; capability: Capability; organizationWide?: { forbiddenMessage: string } },
): Promise<Organization> {
  if (!isIntId(options.organizationId)) throw NotFound(`Organization ${String(options.organizationId).slice(0, 64)} not found.`);
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, options.organizationId)).limit(1);
  if (!organization || !reachesOrganization(options.principal, options.capability, organization.id)) {
    throw NotFound(`Organization ${options.organizationId} not found.`);
  }
  if (options.organizationWide && !canAccess(options.principal, options.capability, { organizationId: organization.id })) {
    throw Forbidden(options.organizationWide.forbiddenMessage);
  }
  return organization;
}
