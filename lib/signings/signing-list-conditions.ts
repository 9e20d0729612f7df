import { and, eq, exists, gte, ilike, lt, or, type SQL } from "drizzle-orm";
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
    conditions.push(
      or(
        ilike(signingPackages.title, pattern),
        exists(
          db
            .select({ one: packageSigners.id })
            .from(packageSigners)
            .where(and(eq(packageSigners.packageId, signingPackages.id), ilike(packageSigners.name, pattern))),
        ),
      )!,
    );
  }
  return conditions;
}
