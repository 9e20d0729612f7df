import type { Capability } from "@/lib/auth/capabilities";
import { canAccess, requireCapability, scopesWith, type Principal } from "@/lib/auth/principal";
import { BadRequest, NotFound } from "@/lib/errors";

/**
 * The organization an organization-level operation acts on: the requested one when the caller holds
 * `capability` on the whole organization (404 otherwise, like a missing one), or, when none is
 * requested, the caller's only such organization (400 when there are several).
 */
export function resolveOrganizationId(
  principal: Principal,
  options: { capability: Capability; organizationId?: number; forbidden: string },
): number {
  requireCapability(principal, options.capability, options.forbidden);
  if (options.organizationId !== undefined) {
    if (!canAccess(principal, options.capability, { organizationId: options.organizationId, companyId: null, locationId: null })) {
      throw NotFound(`Organization ${options.organizationId} not found.`);
    }
    return options.organizationId;
  }
  const organizations = new Set(
    scopesWith(principal, options.capability).flatMap((s) => (s.type === "organization" ? [s.organizationId] : [])),
  );
  if (organizations.size !== 1) {
    throw organizations.size === 0 ? NotFound("No organization found.") : BadRequest("Pass organizationId: you belong to several organizations.");
  }
  return [...organizations][0]!;
}
