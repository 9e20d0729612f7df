import { asc, eq, getTableColumns } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";

/** Metadata of a package's documents in order; the bytes stay in the database. Rows out: the `/v1` route serializes them. */
export async function listPackageDocuments(db: Db, options: { principal: Principal; packageId: string }) {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  return packageDocumentMetadata(db, signing.id);
}

/** The metadata rows of a package the caller has already been checked against, in order (no bytes). */
export function packageDocumentMetadata(db: Db, packageId: string) {
  const { storageKey: _storageKey, ...metadataColumns } = getTableColumns(packageDocuments);
  return db
    .select(metadataColumns)
    .from(packageDocuments)
    .where(eq(packageDocuments.packageId, packageId))
    .orderBy(asc(packageDocuments.position), asc(packageDocuments.id));
}
