import { AppError, Forbidden } from "@/lib/errors";
import type { Capability } from "./capabilities";
import { canAccess, type Principal } from "./principal";
import { reachesOrganization } from "./reaches-organization";

/**
 * Access to an organization-wide resource (a template, a flow): any role granting `capability` in
 * the organization may see it, otherwise `notFound` is thrown. Changing it (`organizationWide`)
 * needs a role that covers the whole organization: a company- or location-level manager gets 403.
 */
export function authorizeOrganizationResource(
  principal: Principal,
  capability: Capability,
  organizationId: number,
  options: { notFound: AppError; organizationWide?: { forbiddenMessage: string } },
): void {
  if (!reachesOrganization(principal, capability, organizationId)) throw options.notFound;
  if (options.organizationWide && !canAccess(principal, capability, { organizationId })) {
    throw Forbidden(options.organizationWide.forbiddenMessage);
  }
}
