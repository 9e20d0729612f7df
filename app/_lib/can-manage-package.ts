import type { Db } from "@/db/client";
import { hasCapability, type Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";

/**
 * Whether the principal reads this package as a manager (the "Manage this package" link, the manager's
 * view of `/signings/<id>`). Only the domain's "not yours" answers (NotFound, Forbidden) mean no; any
 * other failure, a database outage included, propagates to the error page.
 */
export async function canManagePackage(db: Db, principal: Principal, packageId: string): Promise<boolean> {
  if (!hasCapability(principal, "signings:read")) return false;
  try {
    await getSigningOrThrow(db, { principal, packageId, capability: "signings:read" });
    return true;
  } catch (error) {
    if (error instanceof AppError && (error.code === "not_found" || error.code === "forbidden")) return false;
    throw error;
  }
}
