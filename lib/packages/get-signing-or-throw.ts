import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signingPackages, type SigningPackage } from "@/db/schema";
import type { Capability } from "@/lib/auth/capabilities";
import { canAccessPackage, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/**
 * Loads a package the principal reaches with `capability` (a role's scope, or a settlement agent's
 * session of that package); otherwise 404, exactly like a missing one.
 * `lock` takes a row lock so concurrent state changes on one package run one after the other.
 */
export async function getSigningOrThrow(
  db: Db,
  options: { principal: Principal; packageId: string; capability: Capability; lock?: boolean },
): Promise<SigningPackage> {
  const notFound = NotFound(`Signing package ${options.packageId} not found.`);
  if (!isUuid(options.packageId)) throw notFound;
  const query = db.select().from(signingPackages).where(eq(signingPackages.id, options.packageId)).limit(1);
  const [found] = options.lock ? await query.for("update") : await query;
  if (!found || !canAccessPackage(options.principal, options.capability, found)) throw notFound;
  return found;
}
