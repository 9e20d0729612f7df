import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, packageSigners, signingPackages } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { isUuid } from "@/lib/ids";

export type SignedDocumentLabel = { documentName: string; packageId: string; packageTitle: string };

export type GetSignedDocumentLabelsOptions = { principal: Principal; documentIds: string[] };

/**
 * Names for the documents of the caller's e-signature records (My records): the document and its
 * package's title, by document id. Only documents of packages the caller signs are named; any other
 * id is left out of the map.
 */
export async function getSignedDocumentLabels(db: Db, options: GetSignedDocumentLabelsOptions): Promise<Map<string, SignedDocumentLabel>> {
  const ids = [...new Set(options.documentIds.filter(isUuid))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectDistinct({
      documentId: packageDocuments.id,
      documentName: packageDocuments.name,
      packageId: signingPackages.id,
      packageTitle: signingPackages.title,
    })
    .from(packageDocuments)
    .innerJoin(signingPackages, eq(signingPackages.id, packageDocuments.packageId))
    .innerJoin(packageSigners, and(eq(packageSigners.packageId, signingPackages.id), eq(packageSigners.userId, options.principal.user.id)))
    .where(inArray(packageDocuments.id, ids));
  return new Map(rows.map((r) => [r.documentId, { documentName: r.documentName, packageId: r.packageId, packageTitle: r.packageTitle }]));
}
