import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, users, type SignerAuthMethod, type User } from "@/db/schema";
import { AUTH_ERRORS, Forbidden, Unauthorized } from "@/lib/errors";
import {
  capabilitiesOf,
  ROLE_CAPABILITIES,
  scopeContains,
  scopeOf,
  type Capability,
  type RoleAssignment,
  type Scope,
} from "./capabilities";

/**
 * The user id of a link holder who has no account (a signer or a settlement agent who opened an emailed
 * link): the nil UUID, which no row has, so a query keyed by the principal's user finds nothing of
 * anybody's (account pages, `/me/esignatures`, bank items).
 */
export const NO_ACCOUNT_USER_ID = "00000000-0000-0000-0000-000000000000";

export type Principal = {
  user: Pick<User, "id" | "email" | "name" | "authProvider">;
  roles: RoleAssignment[];
  capabilities: Capability[];
  /**
   * Set when the principal is a signer session opened from an emailed access link
   * (lib/signer-access): it reads and signs that one package as that one signer, nothing else.
   */
  signerSession?: { sessionId: string; packageId: string; signerId: string; method: SignerAuthMethod };
  /**
   * Set when the principal is a settlement agent's session opened from a one-time link
   * (lib/settlement-agent): it holds only the scanback capabilities, and only for that one package.
   */
  agentSession?: { linkId: string; packageId: string; agentName: string };
};

function principalQuery(db: Db) {
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      authProvider: users.authProvider,
      membershipId: memberships.id,
      role: memberships.role,
      organizationId: memberships.organizationId,
      companyId: memberships.companyId,
      locationId: memberships.locationId,
    })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .where(and(eq(users.authSubject, sql.placeholder("subject")), eq(users.isActive, true)))
    .prepare("resolve_principal");
}

// A named statement is parsed and planned once per connection instead of on every request: this
// query runs for every /v1 call, and planning cost several times its execution (docs/performance.md).
const preparedQueries = new WeakMap<Db, ReturnType<typeof principalQuery>>();

/**
 * Resolves a verified token subject to the user and their role assignments in one round trip.
 * An unknown or deactivated subject is indistinguishable from a bad token (the API contract's one 401 text).
 */
export async function resolvePrincipal(db: Db, subject: string): Promise<Principal> {
  let query = preparedQueries.get(db);
  if (!query) {
    query = principalQuery(db);
    preparedQueries.set(db, query);
  }
  const rows = await query.execute({ subject });
  const first = rows[0];
  if (!first) throw Unauthorized(AUTH_ERRORS.invalid);
  const roles: RoleAssignment[] = [];
  for (const row of rows) {
    if (row.membershipId && row.role) roles.push({ id: row.membershipId, role: row.role, scope: scopeOf({ ...row, role: row.role }) });
  }
  return {
    user: { id: first.id, email: first.email, name: first.name, authProvider: first.authProvider },
    roles,
    capabilities: capabilitiesOf(roles),
  };
}

export function hasCapability(principal: Principal, capability: Capability): boolean {
  return principal.capabilities.includes(capability);
}

/** 403 unless some role of the principal grants `capability` somewhere (the authorize step of every domain function). */
export function requireCapability(principal: Principal, capability: Capability, message: string): void {
  if (!hasCapability(principal, capability)) throw Forbidden(message);
}

/** The scopes in which the principal holds `capability`. */
export function scopesWith(principal: Principal, capability: Capability): Scope[] {
  return principal.roles
    .filter((r) => (ROLE_CAPABILITIES[r.role] as readonly string[]).includes(capability))
    .map((r) => r.scope);
}

/**
 * Does the principal hold `capability` for this package: through a role whose scope contains it, or
 * as the settlement agent session of exactly this package.
 */
export function canAccessPackage(
  principal: Principal,
  capability: Capability,
  signing: { id: string; organizationId: number; companyId?: number | null; locationId?: number | null },
): boolean {
  if (principal.agentSession) return principal.agentSession.packageId === signing.id && hasCapability(principal, capability);
  return canAccess(principal, capability, signing);
}

export function canAccess(
  principal: Principal,
  capability: Capability,
  place: { organizationId: number; companyId?: number | null; locationId?: number | null },
): boolean {
  return scopesWith(principal, capability).some((scope) => scopeContains(scope, place));
}
