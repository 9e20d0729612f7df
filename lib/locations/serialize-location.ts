import type { Location } from "@/db/schema";

export function serializeLocation(l: Location) {
  return {
    id: l.id,
    organizationId: l.organizationId,
    companyId: l.companyId,
    name: l.name,
    addressLine1: l.addressLine1,
    city: l.city,
    region: l.region,
    postalCode: l.postalCode,
    timezone: l.timezone,
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  };
}
