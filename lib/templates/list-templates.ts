import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { templates, type Template } from "@/db/schema";
import { organizationFilter } from "@/lib/auth/organization-filter";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { closeWindow, openWindow, type CappedPage } from "@/lib/pagination/capped-window";

/** Templates of the caller's organizations (an admin: all, capped), newest first. */
export async function listTemplates(
  db: Db,
  options: { principal: Principal; limit: number; cursor?: string; organizationId?: number },
): Promise<CappedPage<Template>> {
  requireCapability(options.principal, "templates:read", "You do not have permission to list templates.");
  const scope = organizationFilter(options.principal, "templates:read", templates.organizationId);
  const window = openWindow("templates", { ...options, cap: scope.cap }, z.uuid());
  const conditions: SQL[] = [scope.where];
  if (window.after) conditions.push(lt(templates.id, window.after));
  if (options.organizationId) conditions.push(eq(templates.organizationId, options.organizationId));
  const rows =
    window.take === 0
      ? []
      : await db
          .select()
          .from(templates)
          .where(and(...conditions))
          .orderBy(desc(templates.id))
          .limit(window.take + 1);
  return closeWindow(rows, window, scope.cap, (r) => r.id);
}
