import { and, desc, eq, exists, ilike, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { packageSigners, signingPackages, type SigningPackage, type SigningStatus } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { scopeFilter } from "@/lib/auth/scope-filter";
import { closeWindow, openWindow, type CappedPage } from "@/lib/db/capped-window";
import { containsPattern } from "@/lib/db/contains-pattern";

export type ListSigningsOptions = {
  principal: Principal;
  limit: number;
  cursor?: string;
  status?: SigningStatus;
  locationId?: number;
  companyId?: number;
  /** Case-insensitive text matched against the title and the signers' names. */
  q?: string;
};

/** The packages the caller manages (or, for an admin, all of them up to the cap), newest first. */
export async function listSignings(db: Db, options: ListSigningsOptions): Promise<CappedPage<SigningPackage>> {
  requireCapability(options.principal, "signings:read", "You do not have permission to list signing packages.");
  const scope = scopeFilter(options.principal, "signings:read", signingPackages);
  const window = openWindow({ ...options, cap: scope.cap }, z.uuid());
  if (window.take === 0) return closeWindow([], window, scope.cap, () => "");

  const conditions: (SQL | undefined)[] = [scope.where];
  if (window.after) conditions.push(lt(signingPackages.id, window.after));
  if (options.status) conditions.push(eq(signingPackages.status, options.status));
  if (options.locationId) conditions.push(eq(signingPackages.locationId, options.locationId));
  if (options.companyId) conditions.push(eq(signingPackages.companyId, options.companyId));
  if (options.q) {
    const pattern = containsPattern(options.q);
    conditions.push(
      or(
        ilike(signingPackages.title, pattern),
        exists(
          db
            .select({ one: packageSigners.id })
            .from(packageSigners)
            .where(and(eq(packageSigners.packageId, signingPackages.id), ilike(packageSigners.name, pattern))),
        ),
      ),
    );
  }
  const rows = await db
    .select()
    .from(signingPackages)
    .where(and(...conditions))
    .orderBy(desc(signingPackages.id))
    .limit(window.take + 1);
  return closeWindow(rows, window, scope.cap, (r) => r.id);
}
