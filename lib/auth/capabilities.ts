import type { Membership, Role } from "@/db/schema";

/**
 * Roles grant capabilities within a scope. Every signed-in user also holds the signer capabilities,
 * which only ever reach packages on which they are a signer.
 */
const SIGNER = ["signer:signings:read", "signer:esignatures:write", "bank:link"] as const;

const MANAGER = [
  "signings:read",
  "signings:write",
  "locations:read",
  "locations:write",
  "companies:read",
  "companies:write",
  "organizations:read",
  "templates:read",
  "templates:write",
  "flows:read",
  "flows:write",
  "documents:read",
  "documents:write",
  "comments:read",
  "comments:write",
  "outreach:read",
  "outreach:write",
  "audit:read",
  // The table packet and the scanback report (read), uploading scans (write): also what a settlement
  // agent's link session holds, for its one package (lib/settlement-agent).
  "scanbacks:read",
  "scanbacks:write",
] as const;

const ORG_ADMIN = [
  ...MANAGER,
  "organizations:write",
  "memberships:read",
  "memberships:write",
  "settings:read",
  "settings:write",
  "billing:read",
  "billing:write",
] as const;

/** Admins read everything, everywhere (capped per resource); they write nothing by virtue of the role. */
const ADMIN = [
  "signings:read",
  "locations:read",
  "companies:read",
  "organizations:read",
  "templates:read",
  "flows:read",
  "documents:read",
  "comments:read",
  "outreach:read",
  "audit:read",
  "scanbacks:read",
] as const;

export const ROLE_CAPABILITIES = {
  signer: [],
  manager: MANAGER,
  org_admin: ORG_ADMIN,
  admin: ADMIN,
} as const satisfies Record<Role, readonly string[]>;

export type Capability = (typeof SIGNER)[number] | (typeof ORG_ADMIN)[number] | (typeof ADMIN)[number];

export type Scope =
  | { type: "global" }
  | { type: "organization"; organizationId: number }
  | { type: "company"; organizationId: number; companyId: number }
  | { type: "location"; organizationId: number; companyId: number; locationId: number };

export type RoleAssignment = { id: string; role: Role; scope: Scope };

export function scopeOf(m: Pick<Membership, "role" | "organizationId" | "companyId" | "locationId">): Scope {
  if (m.role === "admin" || m.organizationId === null) return { type: "global" };
  if (m.companyId === null) return { type: "organization", organizationId: m.organizationId };
  if (m.locationId === null) return { type: "company", organizationId: m.organizationId, companyId: m.companyId };
  return { type: "location", organizationId: m.organizationId, companyId: m.companyId, locationId: m.locationId };
}

export function capabilitiesOf(assignments: readonly RoleAssignment[]): Capability[] {
  const all = new Set<Capability>(SIGNER);
  for (const a of assignments) for (const c of ROLE_CAPABILITIES[a.role]) all.add(c);
  return [...all].sort();
}

/** Does `scope` contain the place identified by organization, company and location? */
export function scopeContains(
  scope: Scope,
  place: { organizationId: number; companyId?: number | null; locationId?: number | null },
): boolean {
  switch (scope.type) {
    case "global":
      return true;
    case "organization":
      return scope.organizationId === place.organizationId;
    case "company":
      return scope.organizationId === place.organizationId && scope.companyId === place.companyId;
    case "location":
      return scope.organizationId === place.organizationId && scope.locationId === place.locationId;
  }
}
