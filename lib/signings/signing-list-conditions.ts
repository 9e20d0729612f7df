import { eq, gte, ilike, inArray, lt, or, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, signingPackages, type SigningStatus } from "@/db/schema";
import { containsPattern } from "@/lib/db/contains-pattern";

export type SigningListFilters = {
  status?: SigningStatus;
  locationId?: number;
  companyId?: number;
  /** Case-insensitive text matched against the title and the signers' names. */
  q?: string;
  /** Created on or after this day (`YYYY-MM-DD`, UTC). */
  createdFrom?: string;
  /** Created on or before this day (`YYYY-MM-DD`, UTC, the whole day included). */
  createdTo?: string;
};

const DAY_MS = 86_400_000;

/**
 * The SQL conditions of the package list's filters, shared by the list (`listSignings`) and its
 * counts per status (`countSigningsByStatus`) so a tab's count is the number of rows the tab lists.
 */
export function signingListConditions(db: Db, filters: SigningListFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(signingPackages.status, filters.status));
  if (filters.locationId) conditions.push(eq(signingPackages.locationId, filters.locationId));
  if (filters.companyId) conditions.push(eq(signingPackages.companyId, filters.companyId));
  if (filters.createdFrom) conditions.push(gte(signingPackages.createdAt, new Date(`${filters.createdFrom}T00:00:00Z`)));
  if (filters.createdTo) conditions.push(lt(signingPackages.createdAt, new Date(Date.parse(`${filters.createdTo}T00:00:00Z`) + DAY_MS)));
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    // `id in (…)` rather than a correlated EXISTS: PostgreSQL then scans the signers once into a hash
    // (a "hashed SubPlan"); with EXISTS it sometimes ran the subquery once per package (0.5 s for the
    // counts over 10,000 packages, docs/performance.md).
    conditions.push(
      or(
        ilike(signingPackages.title, pattern),
        inArray(signingPackages.id, db.select({ id: packageSigners.packageId }).from(packageSigners).where(ilike(packageSigners.name, pattern))),
      )!,
    );
  }
  return conditions;
}
