import type { Db } from "@/db/client";
import { canAccess, hasCapability, type Principal } from "@/lib/auth/principal";
import { listCompanies } from "@/lib/companies/list-companies";
import { listLocations } from "@/lib/locations/list-locations";
import { listOrganizations } from "@/lib/organizations/list-organizations";

export type PlaceOption = { value: string; label: string };
export type PlaceGroup = { organization: string; options: PlaceOption[] };

const LIMIT = 100;

/**
 * Where the principal may put a document, grouped by organization: the organization itself, its
 * companies and locations, each only when `documents:write` reaches it (the same rule
 * `resolveDocumentPlacement` applies). Values are `organization:<id>`, `company:<id>`, `location:<id>`.
 */
export async function listPlaceOptions(db: Db, principal: Principal): Promise<PlaceGroup[]> {
  if (!hasCapability(principal, "organizations:read")) return [];
  const [organizations, companies, locations] = await Promise.all([
    listOrganizations(db, { principal, limit: LIMIT }),
    hasCapability(principal, "companies:read") ? listCompanies(db, { principal, limit: LIMIT }) : { rows: [] },
    hasCapability(principal, "locations:read") ? listLocations(db, { principal, limit: LIMIT }) : { rows: [] },
  ]);
  const write = (place: { organizationId: number; companyId?: number | null; locationId?: number | null }) =>
    canAccess(principal, "documents:write", place);
  return organizations.rows
    .map((org) => {
      const options: PlaceOption[] = [];
      if (write({ organizationId: org.id })) options.push({ value: `organization:${org.id}`, label: `${org.name} (whole organization)` });
      for (const company of companies.rows.filter((c) => c.organizationId === org.id)) {
        if (write({ organizationId: org.id, companyId: company.id })) options.push({ value: `company:${company.id}`, label: `${company.name} (company)` });
      }
      // A location-level manager may not see the location's company: locations are listed on their own.
      for (const location of locations.rows.filter((l) => l.organizationId === org.id)) {
        if (write({ organizationId: org.id, companyId: location.companyId, locationId: location.id })) {
          const company = companies.rows.find((c) => c.id === location.companyId);
          options.push({ value: `location:${location.id}`, label: company ? `${location.name} (location, ${company.name})` : `${location.name} (location)` });
        }
      }
      return { organization: org.name, options };
    })
    .filter((group) => group.options.length > 0);
}
