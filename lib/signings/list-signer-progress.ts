import { asc, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type PackageSigner } from "@/db/schema";

export type SignerProgress = Pick<
  PackageSigner,
  "id" | "packageId" | "name" | "role" | "routingOrder" | "status" | "notifiedAt" | "viewedAt" | "signedAt" | "declinedAt"
>;

/**
 * The signers of a page of packages, in routing order, in one query (no query per row). Pass only
 * ids from a list the caller was allowed to read (`listSignings`): this function does not check scope.
 */
export async function listSignerProgress(db: Db, options: { packageIds: string[] }): Promise<Map<string, SignerProgress[]>> {
  const byPackage = new Map<string, SignerProgress[]>(options.packageIds.map((id) => [id, []]));
  if (options.packageIds.length === 0) return byPackage;
  const rows = await db
    .select({
      id: packageSigners.id,
      packageId: packageSigners.packageId,
      name: packageSigners.name,
      role: packageSigners.role,
      routingOrder: packageSigners.routingOrder,
      status: packageSigners.status,
      notifiedAt: packageSigners.notifiedAt,
      viewedAt: packageSigners.viewedAt,
      signedAt: packageSigners.signedAt,
      declinedAt: packageSigners.declinedAt,
    })
    .from(packageSigners)
    .where(inArray(packageSigners.packageId, options.packageIds))
    .orderBy(asc(packageSigners.packageId), asc(packageSigners.routingOrder), asc(packageSigners.createdAt), asc(packageSigners.id));
  for (const row of rows) byPackage.get(row.packageId)?.push(row);
  return byPackage;
}
