import type { Metadata } from "next";
import { canAccess } from "@/lib/auth/principal";
import { getCompanyOrThrow } from "@/lib/companies/get-company-or-throw";
import { getLocationOrThrow } from "@/lib/locations/get-location-or-throw";
import { getOrganizationOrThrow } from "@/lib/organizations/get-organization-or-throw";
import { loadOr404, loadOrNull } from "@/app/_lib/load-or-404";
import { deleteLocationAction, updateLocationAction } from "../../actions";
import { LocationForm } from "../../_components/location-form";
import { PlaceDetail } from "../../_components/place-detail";
import { openPlacePage, type PlacePageProps } from "../../place-id";

export const metadata: Metadata = { title: "Location" };

export default async function LocationPage({ params }: Pick<PlacePageProps, "params">) {
  const { db, principal, id } = await openPlacePage(params, "locations", "locations:read");
  const location = await loadOr404(getLocationOrThrow(db, { principal, locationId: id, capability: "locations:read" }));
  const [company, organization] = await Promise.all([
    loadOrNull(getCompanyOrThrow(db, { principal, companyId: location.companyId, capability: "locations:read" })),
    loadOrNull(getOrganizationOrThrow(db, { principal, organizationId: location.organizationId, capability: "organizations:read" })),
  ]);
  const canEdit = canAccess(principal, "locations:write", { organizationId: location.organizationId, companyId: location.companyId, locationId: location.id });
  const address = [location.addressLine1, location.city, location.region, location.postalCode].filter(Boolean).join(", ");

  return (
    <PlaceDetail
      crumbs={[
        { href: "/places", label: "Places" },
        ...(organization ? [{ href: `/places/organizations/${organization.id}`, label: organization.name }] : []),
        ...(company ? [{ href: `/places/companies/${company.id}`, label: company.name }] : []),
      ]}
      title={location.name}
      intro={
        <>
          {address || "No address"} · time zone {location.timezone}
        </>
      }
      settings={
        canEdit && {
          noun: "location",
          name: location.name,
          heading: { id: "location-details-heading", title: "Location details" },
          form: (
            <LocationForm
              action={updateLocationAction.bind(null, location.id)}
              idPrefix="location"
              initial={location}
              submitLabel="Save location"
              pendingLabel="Saving…"
            />
          ),
          deleteRule: "A location can be deleted only while no signing package or role assignment uses it.",
          deleteAction: deleteLocationAction.bind(null, location.id, location.companyId),
        }
      }
      readOnlyNote="You can see this location; changing it needs a manager role for it."
    />
  );
}
