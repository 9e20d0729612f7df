import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { locations, memberships, signingPackages } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { pgErrorCode } from "@/lib/db/pg-error-code";
import { Conflict } from "@/lib/errors";
import { getLocationOrThrow } from "./get-location-or-throw";
import { serializeLocation } from "./serialize-location";

const count = sql<number>`count(*)::int`;

/** Deletes a location without signing packages or role assignments; 409 otherwise. */
export async function deleteLocation(db: Db, options: { principal: Principal; locationId: number; ipAddress?: string | null }): Promise<void> {
  requireCapability(options.principal, "locations:write", "You do not have permission to delete locations.");
  try {
    await db.transaction(async (tx) => {
      const location = await getLocationOrThrow(tx, { ...options, capability: "locations:write" });
      await tx.execute(sql`select 1 from ${locations} where ${locations.id} = ${location.id} for update`);
      const [p] = await tx.select({ n: count }).from(signingPackages).where(eq(signingPackages.locationId, location.id));
      const [m] = await tx.select({ n: count }).from(memberships).where(eq(memberships.locationId, location.id));
      const dependents = (
        [
          [p!.n, "signing packages"],
          [m!.n, "role assignments"],
        ] as const
      ).filter(([n]) => n > 0);
      if (dependents.length > 0) {
        throw Conflict(`Location ${location.id} still has ${dependents.map(([n, what]) => `${n} ${what}`).join(", ")}; remove them first.`);
      }
      await tx.delete(locations).where(eq(locations.id, location.id));
      await recordAuditEntry(tx, {
        organizationId: location.organizationId,
        actorUserId: options.principal.user.id,
        action: "location.deleted",
        entityType: "location",
        entityId: String(location.id),
        ipAddress: options.ipAddress,
        before: serializeLocation(location),
      });
    });
  } catch (error) {
    if (pgErrorCode(error) === "23503") throw Conflict(`Location ${options.locationId} still has dependent records.`);
    throw error;
  }
}
