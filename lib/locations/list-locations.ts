import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { locations, type Location } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { scopeFilter } from "@/lib/auth/scope-filter";
import { closeWindow, openWindow, type CappedPage } from "@/lib/pagination/capped-window";

/** Locations inside the caller's roles (an admin: all, capped), by id. */
export async function listLocations(
  db: Db,
  options: { principal: Principal; limit: number; cursor?: string; organizationId?: number; companyId?: number },
): Promise<CappedPage<Location>> {
  requireCapability(options.principal, "locations:read", "You do not have permission to list locations.");
  const scope = scopeFilter(options.principal, "locations:read", {
    organizationId: locations.organizationId,
    companyId: locations.companyId,
    locationId: locations.id,
  });
  const window = openWindow("locations", { ...options, cap: scope.cap }, z.number().int());
  const conditions: SQL[] = [scope.where];
  if (window.after !== null) conditions.push(gt(locations.id, window.after));
  if (options.organizationId) conditions.push(eq(locations.organizationId, options.organizationId));
  if (options.companyId) conditions.push(eq(locations.companyId, options.companyId));
  const rows =
    window.take === 0
      ? []
      : await db
          .select()
          .from(locations)
          .where(and(...conditions))
          .orderBy(asc(locations.id))
          .limit(window.take + 1);
  return closeWindow(rows, window, scope.cap, (r) => r.id);
}
