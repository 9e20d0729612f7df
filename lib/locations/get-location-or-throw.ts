import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { locations, type Location } from "@/db/schema";
import { canAccess, type Principal } from "@/lib/auth/principal";
import type { Capability } from "@/lib/auth/capabilities";
import { NotFound } from "@/lib/errors";
import { isIntId } from "@/lib/ids";

/** Loads a location the principal may act on with `capability`; otherwise 404, never revealing it exists. */
export async function getLocationOrThrow(
  db: Db,
  options: { principal: Principal; locationId: number; capability: Capability },
): Promise<Location> {
  if (!isIntId(options.locationId)) throw NotFound(`Location ${String(options.locationId).slice(0, 64)} not found.`);
  const [location] = await db.select().from(locations).where(eq(locations.id, options.locationId)).limit(1);
  const visible =
    location &&
    canAccess(options.principal, options.capability, {
      organizationId: location.organizationId,
      companyId: location.companyId,
      locationId: location.id,
    });
  if (!location || !visible) {
    throw NotFound(`Location ${options.locationId} not found.`);
  }
  return location;
}
