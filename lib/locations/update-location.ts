import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { locations, type Location } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getLocationOrThrow } from "./get-location-or-throw";
import { serializeLocation } from "./serialize-location";

export type UpdateLocationOptions = {
  principal: Principal;
  locationId: number;
  name?: string;
  addressLine1?: string | null;
  city?: string | null;
  region?: string | null;
  postalCode?: string | null;
  timezone?: string;
  ipAddress?: string | null;
};

/** Edits a location's name, address or time zone; a location-level manager may edit their own. */
export async function updateLocation(db: Db, options: UpdateLocationOptions): Promise<Location> {
  requireCapability(options.principal, "locations:write", "You do not have permission to change locations.");
  const { principal, locationId, ipAddress, ...fields } = options;
  const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return db.transaction(async (tx) => {
    const before = await getLocationOrThrow(tx, { principal, locationId, capability: "locations:write" });
    const [after] = await tx
      .update(locations)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(locations.id, before.id))
      .returning();
    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      actorUserId: principal.user.id,
      action: "location.updated",
      entityType: "location",
      entityId: String(before.id),
      ipAddress,
      before: serializeLocation(before),
      after: serializeLocation(after!),
    });
    return after!;
  });
}
