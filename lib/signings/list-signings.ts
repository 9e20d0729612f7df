import { and, desc, eq, getTableColumns, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { companies, locations, organizations, signingPackages, type SigningPackage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { scopeFilter } from "@/lib/auth/scope-filter";
import { closeWindow, openWindow, type CappedPage } from "@/lib/pagination/capped-window";
import { signingListConditions, type SigningListFilters } from "./signing-list-conditions";

export type ListSigningsOptions = SigningListFilters & {
  principal: Principal;
  limit: number;
  cursor?: string;
};

/** A package of the list with the names of its place, so a page can show them without a lookup per row. */
export type SigningListRow = SigningPackage & { locationName: string; companyName: string; organizationName: string };

/** The packages the caller manages (or, for an admin, all of them up to the cap), newest first. */
export async function listSignings(db: Db, options: ListSigningsOptions): Promise<CappedPage<SigningListRow>> {
  requireCapability(options.principal, "signings:read", "You do not have permission to list signing packages.");
  const scope = scopeFilter(options.principal, "signings:read", signingPackages);
  const window = openWindow("signings", { ...options, cap: scope.cap }, z.uuid());
  if (window.take === 0) return closeWindow([], window, scope.cap, () => "");

  const conditions: (SQL | undefined)[] = [scope.where, ...signingListConditions(db, options)];
  if (window.after) conditions.push(lt(signingPackages.id, window.after));
  const rows = await db
    .select({ ...getTableColumns(signingPackages), locationName: locations.name, companyName: companies.name, organizationName: organizations.name })
    .from(signingPackages)
    .innerJoin(locations, eq(locations.id, signingPackages.locationId))
    .innerJoin(companies, eq(companies.id, signingPackages.companyId))
    .innerJoin(organizations, eq(organizations.id, signingPackages.organizationId))
    .where(and(...conditions))
    .orderBy(desc(signingPackages.id))
    .limit(window.take + 1);
  return closeWindow(rows, window, scope.cap, (r) => r.id);
}
