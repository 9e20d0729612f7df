import { and, count } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signingPackages, signingStatusEnum, type SigningStatus } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { scopeFilter } from "@/lib/auth/scope-filter";
import { signingListConditions, type SigningListFilters } from "./signing-list-conditions";

export type SigningStatusCounts = Record<SigningStatus, number> & { all: number };

/**
 * How many packages each status tab of the list holds: the same scope and filters as `listSignings`
 * (all but the status), in one grouped query. An admin's counts cover every package: the read cap
 * bounds the rows an admin can page through, not the totals.
 */
export async function countSigningsByStatus(
  db: Db,
  options: Omit<SigningListFilters, "status"> & { principal: Principal },
): Promise<SigningStatusCounts> {
  requireCapability(options.principal, "signings:read", "You do not have permission to list signing packages.");
  const scope = scopeFilter(options.principal, "signings:read", signingPackages);
  const rows = await db
    .select({ status: signingPackages.status, n: count() })
    .from(signingPackages)
    .where(and(scope.where, ...signingListConditions(db, { ...options, status: undefined })))
    .groupBy(signingPackages.status);
  const counts = Object.fromEntries(signingStatusEnum.enumValues.map((s) => [s, 0])) as SigningStatusCounts;
  counts.all = 0;
  for (const row of rows) {
    counts[row.status] = row.n;
    counts.all += row.n;
  }
  return counts;
}
