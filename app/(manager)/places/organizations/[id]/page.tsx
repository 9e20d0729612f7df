import type { Metadata } from "next";
import Link from "next/link";
import { canAccess } from "@/lib/auth/principal";
import { listCompanies } from "@/lib/companies/list-companies";
import { listLocations } from "@/lib/locations/list-locations";
import { getOrganizationOrThrow } from "@/lib/organizations/get-organization-or-throw";
import { cursorParam, listFromCursor } from "../../../_shared/list-cursor";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { createCompanyAction, deleteOrganizationAction, updateOrganizationAction } from "../../actions";
import { PlaceDetail } from "../../_components/place-detail";
import { openPlacePage, type PlacePageProps } from "../../place-id";
import { subtleLinkClass } from "@/components/ui/classes";

export const metadata: Metadata = { title: "Organization" };

const LOCATIONS_SHOWN = 5;

export default async function OrganizationPage({ params, searchParams }: PlacePageProps) {
  const { db, principal, id, path } = await openPlacePage(params, "organizations", "organizations:read");
  const organization = await loadOr404(getOrganizationOrThrow(db, { principal, organizationId: id, capability: "organizations:read" }));
  const cursor = cursorParam((await searchParams).cursor);
  const companies = await listFromCursor((c) => listCompanies(db, { principal, limit: 25, cursor: c, organizationId: organization.id }), cursor);
  // The tree's next level: each company's first few locations (its page lists them all).
  const locationsByCompany = await Promise.all(
    companies.rows.map((company) => listLocations(db, { principal, limit: LOCATIONS_SHOWN, companyId: company.id })),
  );
  const place = { organizationId: organization.id };
  const canEdit = canAccess(principal, "organizations:write", place);
  const canAddCompany = canAccess(principal, "companies:write", place);

  return (
    <PlaceDetail
      crumbs={[{ href: "/places", label: "Places" }]}
      title={organization.name}
      intro={
        <>
          Organization <span className="font-mono text-xs">{organization.slug}</span>. Its companies, each with its locations.
        </>
      }
      add={canAddCompany && { noun: "company", action: createCompanyAction, hidden: { organizationId: String(organization.id) } }}
      settings={
        canEdit && {
          noun: "organization",
          name: organization.name,
          rename: updateOrganizationAction.bind(null, organization.id),
          deleteRule: "An organization can be deleted only once it has no companies, packages or templates left.",
          deleteAction: deleteOrganizationAction.bind(null, organization.id),
        }
      }
      list={{ title: "Companies", page: companies, canAdd: canAddCompany, path, cursor }}
    >
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-labelledby="companies-heading">
        {companies.rows.map((company, index) => {
          const locations = locationsByCompany[index]!;
          return (
            <li key={company.id} className="space-y-1 px-4 py-3">
              <Link href={`/places/companies/${company.id}`} className={`font-medium ${subtleLinkClass}`}>
                {company.name}
              </Link>
              {locations.rows.length === 0 ? (
                <p className="pl-4 text-sm text-slate-600">No locations</p>
              ) : (
                <ul className="flex flex-wrap gap-x-4 gap-y-1 pl-4 text-sm" aria-label={`Locations of ${company.name}`}>
                  {locations.rows.map((location) => (
                    <li key={location.id}>
                      <Link href={`/places/locations/${location.id}`} className={subtleLinkClass}>
                        {location.name}
                      </Link>
                    </li>
                  ))}
                  {locations.nextCursor ? (
                    <li>
                      <Link href={`/places/companies/${company.id}`} className={`${subtleLinkClass} text-slate-700`}>
                        All locations of {company.name}
                      </Link>
                    </li>
                  ) : null}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </PlaceDetail>
  );
}
