import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { canAccess, hasCapability } from "@/lib/auth/principal";
import { getCompanyOrThrow } from "@/lib/companies/get-company-or-throw";
import { listLocations } from "@/lib/locations/list-locations";
import { getOrganizationOrThrow } from "@/lib/organizations/get-organization-or-throw";
import { cursorParam, listFromCursor } from "../../../_shared/list-cursor";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { NextPageLink } from "../../../_shared/next-page-link";
import { EmptyState, Section } from "@/components/ui/section";
import { createLocationAction, deleteCompanyAction, updateCompanyAction } from "../../actions";
import { LocationForm } from "../../_components/location-form";
import { NameForm } from "../../_components/name-form";
import { PlaceDetail } from "../../_components/place-detail";
import { placeId } from "../../place-id";
import { subtleLinkClass } from "@/components/ui/classes";

export const metadata: Metadata = { title: "Company" };

export default async function CompanyPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = (await params).id;
  const path = `/places/companies/${raw}`;
  const { db, principal } = await requirePrincipal(path);
  const id = placeId(raw);
  if (id === null || !hasCapability(principal, "companies:read")) notFound();
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
      add={
        canAddLocation
          ? {
              id: "new-location-heading",
              title: "New location",
              form: (
                <LocationForm
                  action={createLocationAction}
                  idPrefix="new-location"
                  hidden={{ companyId: String(company.id) }}
                  submitLabel="Add location"
                  pendingLabel="Adding…"
                />
              ),
            }
          : undefined
      }
      settings={
        canEdit
          ? {
              id: "company-settings-heading",
              title: "Company settings",
              form: (
                <NameForm
                  action={updateCompanyAction.bind(null, company.id)}
                  idPrefix="company"
                  label="Company name"
                  defaultName={company.name}
                  submitLabel="Save name"
                  pendingLabel="Saving…"
                />
              ),
              delete: {
                id: "delete-company",
                title: `Delete ${company.name}?`,
                description: "A company can be deleted only once it has no locations, packages or role assignments left. This cannot be undone.",
                openLabel: "Delete company",
                confirmLabel: "Delete company",
                action: deleteCompanyAction.bind(null, company.id, company.organizationId),
              },
            }
          : undefined
      }
    >
      <Section id="locations-heading" title="Locations">
        {locations.rows.length === 0 ? (
          <EmptyState>{canAddLocation ? "No locations yet. Add the first one below." : "No locations you can see."}</EmptyState>
        ) : (
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
        )}
        <NextPageLink path={path} cursor={cursor} nextCursor={locations.nextCursor} label="Locations" />
      </Section>
    </PlaceDetail>
  );
}
