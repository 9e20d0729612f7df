import { and, asc, gt, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { organizations, type Organization } from "@/db/schema";
import { requireCapability, scopesWith, type Principal } from "@/lib/auth/principal";
import { closeWindow, openWindow, type CappedPage } from "@/lib/pagination/capped-window";
import { getEnv } from "@/lib/env";

/** The organizations the caller holds a role in (an admin: all, up to the cap), by id. */
export async function listOrganizations(
  db: Db,
  options: { principal: Principal; limit: number; cursor?: string },
): Promise<CappedPage<Organization>> {
  requireCapability(options.principal, "organizations:read", "You do not have permission to list organizations.");
  const scopes = scopesWith(options.principal, "organizations:read");
  const global = scopes.some((s) => s.type === "global");
  const cap = global ? getEnv().ADMIN_READ_CAP : null;
  const ids = [...new Set(scopes.flatMap((s) => (s.type === "global" ? [] : [s.organizationId])))];
  const window = openWindow("organizations", { ...options, cap }, z.number().int());
  const conditions: SQL[] = [global ? sql`true` : ids.length > 0 ? inArray(organizations.id, ids) : sql`false`];
  if (window.after !== null) conditions.push(gt(organizations.id, window.after));
  const rows =
    window.take === 0
      ? []
      : await db
          .select()
          .from(organizations)
          .where(and(...conditions))
          .orderBy(asc(organizations.id))
          .limit(window.take + 1);
  return closeWindow(rows, window, cap, (r) => r.id);
}
