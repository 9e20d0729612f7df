import { scopesWith, type Principal } from "@/lib/auth/principal";

/**
 * The organizations the principal acts for in the eVault: those where it is an organization-wide
 * admin (`organizations:write` over the whole organization). Control of a record is the
 * organization's, so only its admins offer, accept, decline, pledge, release or convert it, and read
 * the authoritative copy; a location manager does not.
 */
export function vaultOrganizations(principal: Principal): number[] {
  if (principal.signerSession || principal.agentSession) return [];
  return [
    ...new Set(
      scopesWith(principal, "organizations:write")
        .filter((s) => s.type === "organization")
        .map((s) => (s as { organizationId: number }).organizationId),
    ),
  ];
}
