import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { flows, type Flow } from "@/db/schema";
import { organizationFilter } from "@/lib/auth/organization-filter";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { closeWindow, openWindow, type CappedPage } from "@/lib/pagination/capped-window";

/** Flows of the caller's organizations (an admin: all, capped), newest first. */
export async function listFlows(
  db: Db,
  options: { principal: Principal; limit: number; cursor?: string; organizationId?: number },
): Promise<CappedPage<Flow>> {
  requireCapability(options.principal, "flows:read", "You do not have permission to list flows.");
  const scope = organizationFilter(options.principal, "flows:read", flows.organizationId);
  const window = openWindow("flows", { ...options, cap: scope.cap }, z.uuid());
  const conditions: SQL[] = [scope.where];
  if (window.after) conditions.push(lt(flows.id, window.after));
  if (options.organizationId) conditions.push(eq(flows.organizationId, options.organizationId));
  const rows =
    window.take === 0
      ? []
      : await db
          .select()
          .from(flows)
          .where(and(...conditions))
          .orderBy(desc(flows.id))
          .limit(window.take + 1);
  return closeWindow(rows, window, scope.cap, (r) => r.id);
}
