import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { canAccess, hasCapability } from "@/lib/auth/principal";
import { getCompanyOrThrow } from "@/lib/companies/get-company-or-throw";
import { getLocationOrThrow } from "@/lib/locations/get-location-or-throw";
import { getOrganizationOrThrow } from "@/lib/organizations/get-organization-or-throw";
import { loadOr404, loadOrNull } from "@/app/_lib/load-or-404";
import { deleteLocationAction, updateLocationAction } from "../../actions";
import { LocationForm } from "../../_components/location-form";
import { PlaceDetail } from "../../_components/place-detail";
import { placeId } from "../../place-id";

export const metadata: Metadata = { title: "Location" };

export default async function LocationPage({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  const { db, principal } = await requirePrincipal(`/places/locations/${raw}`);
  const id = placeId(raw);
  if (id === null || !hasCapability(principal, "locations:read")) notFound();
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
        canEdit
          ? {
              id: "location-details-heading",
              title: "Location details",
              form: (
                <LocationForm
                  action={updateLocationAction.bind(null, location.id)}
                  idPrefix="location"
                  initial={location}
                  submitLabel="Save location"
                  pendingLabel="Saving…"
                />
              ),
              delete: {
                id: "delete-location",
                title: `Delete ${location.name}?`,
                description: "A location can be deleted only while no signing package or role assignment uses it. This cannot be undone.",
                openLabel: "Delete location",
                confirmLabel: "Delete location",
                action: deleteLocationAction.bind(null, location.id, location.companyId),
              },
            }
          : undefined
      }
      readOnlyNote="You can see this location; changing it needs a manager role for it."
    />
  );
}
