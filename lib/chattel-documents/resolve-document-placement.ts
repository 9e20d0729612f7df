import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companies, locations, organizations } from "@/db/schema";
import type { Capability } from "@/lib/auth/capabilities";
import { canAccess, scopesWith, type Principal } from "@/lib/auth/principal";
import { BadRequest, NotFound } from "@/lib/errors";

export type DocumentPlacement = { organizationId: number; companyId: number | null; locationId: number | null };

/**
 * Where a document sits: the narrowest of location, company and organization given (the wider ids
 * are derived, and must agree when also given). Without any id, the caller's only scope is used.
 * A place the caller cannot reach with `capability` is a 404, like one that does not exist.
 */
export async function resolveDocumentPlacement(
  db: Db,
  options: {
    principal: Principal;
    capability: Capability;
    organizationId?: number | null;
    companyId?: number | null;
    locationId?: number | null;
  },
): Promise<DocumentPlacement> {
  const { principal, capability } = options;
  let placement: DocumentPlacement;
  let notFound: Error;
  if (options.locationId != null) {
    const [row] = await db.select().from(locations).where(eq(locations.id, options.locationId)).limit(1);
    notFound = NotFound(`Location ${options.locationId} not found.`);
    if (!row) throw notFound;
    placement = { organizationId: row.organizationId, companyId: row.companyId, locationId: row.id };
  } else if (options.companyId != null) {
    const [row] = await db.select().from(companies).where(eq(companies.id, options.companyId)).limit(1);
    notFound = NotFound(`Company ${options.companyId} not found.`);
    if (!row) throw notFound;
    placement = { organizationId: row.organizationId, companyId: row.id, locationId: null };
  } else if (options.organizationId != null) {
    const [row] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, options.organizationId)).limit(1);
    notFound = NotFound(`Organization ${options.organizationId} not found.`);
    if (!row) throw notFound;
    placement = { organizationId: row.id, companyId: null, locationId: null };
  } else {
    const scopes = scopesWith(principal, capability);
    const only = scopes.length === 1 ? scopes[0] : undefined;
    if (!only || only.type === "global") throw BadRequest("Pass organizationId, companyId or locationId.");
    return {
      organizationId: only.organizationId,
      companyId: only.type === "organization" ? null : only.companyId,
      locationId: only.type === "location" ? only.locationId : null,
    };
  }
  if (!canAccess(principal, capability, placement)) throw notFound;
  if (options.organizationId != null && options.organizationId !== placement.organizationId) {
    throw BadRequest("organizationId does not match the organization of the company or location.");
  }
  if (options.companyId != null && options.companyId !== placement.companyId) {
    throw BadRequest("companyId does not match the company of the location.");
  }
  return placement;
}
