import type { Db } from "@/db/client";
import { locations, type Location } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getCompanyOrThrow } from "@/lib/companies/get-company-or-throw";
import { serializeLocation } from "./serialize-location";

export type CreateLocationOptions = {
  principal: Principal;
  companyId: number;
  name: string;
  addressLine1?: string | null;
  city?: string | null;
  region?: string | null;
  postalCode?: string | null;
  timezone?: string;
  ipAddress?: string | null;
};

/** Creates a location in a company the caller manages at company or organization level. */
export async function createLocation(db: Db, options: CreateLocationOptions): Promise<Location> {
  requireCapability(options.principal, "locations:write", "You do not have permission to create locations.");
  return db.transaction(async (tx) => {
    const company = await getCompanyOrThrow(tx, { ...options, capability: "locations:write" });
    const [created] = await tx
      .insert(locations)
      .values({
        organizationId: company.organizationId,
        companyId: company.id,
        name: options.name,
        addressLine1: options.addressLine1 ?? null,
        city: options.city ?? null,
        region: options.region ?? null,
        postalCode: options.postalCode ?? null,
        ...(options.timezone ? { timezone: options.timezone } : {}),
      })
      .returning();
    await recordAuditEntry(tx, {
      organizationId: company.organizationId,
      actorUserId: options.principal.user.id,
      action: "location.created",
      entityType: "location",
      entityId: String(created!.id),
      ipAddress: options.ipAddress,
      after: serializeLocation(created!),
    });
    return created!;
  });
}
