import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type PackageSigner } from "@/db/schema";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/** A signer of the given package; 404 otherwise. */
export async function getSignerOrThrow(db: Db, options: { packageId: string; signerId: string }): Promise<PackageSigner> {
  const notFound = NotFound(`Signer ${options.signerId} not found.`);
  if (!isUuid(options.signerId)) throw notFound;
  const [signer] = await db
    .select()
    .from(packageSigners)
    .where(and(eq(packageSigners.id, options.signerId), eq(packageSigners.packageId, options.packageId)))
    .limit(1);
  if (!signer) throw notFound;
  return signer;
}
