import type { Capability } from "./capabilities";
import { scopesWith, type Principal } from "./principal";

/**
 * Whether any role granting `capability` is scoped inside (or above) the organization. Used for
 * organization-wide resources — templates, flows, the organization itself — that a company- or
 * location-level manager reads but does not own.
 */
export function reachesOrganization(principal: Principal, capability: Capability, organizationId: number): boolean {
  return scopesWith(principal, capability).some((s) => s.type === "global" || s.organizationId === organizationId);
}
