import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { companies, type Company } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { scopeFilter } from "@/lib/auth/scope-filter";
import { closeWindow, openWindow, type CappedPage } from "@/lib/pagination/capped-window";

/** Companies inside the caller's organization- or company-level roles (an admin: all, capped), by id. */
export async function listCompanies(
  db: Db,
  options: { principal: Principal; limit: number; cursor?: string; organizationId?: number },
): Promise<CappedPage<Company>> {
  requireCapability(options.principal, "companies:read", "You do not have permission to list companies.");
  const scope = scopeFilter(options.principal, "companies:read", { organizationId: companies.organizationId, companyId: companies.id });
  const window = openWindow("companies", { ...options, cap: scope.cap }, z.number().int());
  const conditions: SQL[] = [scope.where];
  if (window.after !== null) conditions.push(gt(companies.id, window.after));
  if (options.organizationId) conditions.push(eq(companies.organizationId, options.organizationId));
  const rows =
    window.take === 0
      ? []
      : await db
          .select()
          .from(companies)
          .where(and(...conditions))
          .orderBy(asc(companies.id))
          .limit(window.take + 1);
  return closeWindow(rows, window, scope.cap, (r) => r.id);
}
