import type { Metadata } from "next";
import Link from "next/link";
import { canAccess } from "@/lib/auth/principal";
import { getCompanyOrThrow } from "@/lib/companies/get-company-or-throw";
import { listLocations } from "@/lib/locations/list-locations";
import { getOrganizationOrThrow } from "@/lib/organizations/get-organization-or-throw";
import { cursorParam, listFromCursor } from "../../../_shared/list-cursor";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { createLocationAction, deleteCompanyAction, updateCompanyAction } from "../../actions";
import { PlaceDetail } from "../../_components/place-detail";
import { openPlacePage, type PlacePageProps } from "../../place-id";
import { subtleLinkClass } from "@/components/ui/classes";

export const metadata: Metadata = { title: "Company" };

export default async function CompanyPage({ params, searchParams }: PlacePageProps) {
  const { db, principal, id, path } = await openPlacePage(params, "companies", "companies:read");
  const company = await loadOr404(getCompanyOrThrow(db, { principal, companyId: id, capability: "companies:read" }));
  const organization = await loadOr404(getOrganizationOrThrow(db, { principal, organizationId: company.organizationId, capability: "organizations:read" }));
  const cursor = cursorParam((await searchParams).cursor);
  const locations = await listFromCursor((c) => listLocations(db, { principal, limit: 25, cursor: c, companyId: company.id }), cursor);
  const place = { organizationId: company.organizationId, companyId: company.id };
  const canEdit = canAccess(principal, "companies:write", place);
  const canAddLocation = canAccess(principal, "locations:write", place);

  return (
    <PlaceDetail
      crumbs={[
        { href: "/places", label: "Places" },
        { href: `/places/organizations/${organization.id}`, label: organization.name },
      ]}
      title={company.name}
      intro={<>A company of {organization.name}. Its locations are listed below.</>}
      add={canAddLocation && { noun: "location", action: createLocationAction, hidden: { companyId: String(company.id) } }}
      settings={
        canEdit && {
          noun: "company",
          name: company.name,
          rename: updateCompanyAction.bind(null, company.id),
          deleteRule: "A company can be deleted only once it has no locations, packages or role assignments left.",
          deleteAction: deleteCompanyAction.bind(null, company.id, company.organizationId),
        }
      }
      list={{ title: "Locations", page: locations, canAdd: canAddLocation, path, cursor }}
    >
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
          <caption className="sr-only">Locations of {company.name}</caption>
          <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-700">
            <tr>
              <th scope="col" className="px-4 py-2">Name</th>
              <th scope="col" className="px-4 py-2">Address</th>
              <th scope="col" className="px-4 py-2">Time zone</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {locations.rows.map((location) => (
              <tr key={location.id}>
                <th scope="row" className="px-4 py-2 font-medium">
                  <Link
                    href={`/places/locations/${location.id}`}
                    className={subtleLinkClass}
                  >
                    {location.name}
                  </Link>
                </th>
                <td className="px-4 py-2 text-slate-700">
                  {[location.addressLine1, location.city, location.region, location.postalCode].filter(Boolean).join(", ") || "—"}
                </td>
                <td className="px-4 py-2 text-slate-700">{location.timezone}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </PlaceDetail>
  );
}
