import type { Db } from "@/db/client";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { getPackageSeal, type PackageSealView } from "./get-package-seal";

/** The seal of a package in the caller's management scope; 404 when the package has none yet (not completed). */
export async function getManagedPackageSeal(db: Db, options: { principal: Principal; packageId: string }): Promise<PackageSealView> {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const seal = await getPackageSeal(db, { packageId: signing.id });
  if (!seal) throw NotFound("This signing package is not complete, so it has no seal.");
  return seal;
}
