import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, type PackageDocument } from "@/db/schema";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/** One document of the package, or 404 (an id of another package's document is "not found" too). */
export async function getPackageDocumentOrThrow(db: Db, packageId: string, documentId: string): Promise<PackageDocument> {
  const notFound = NotFound(`Document ${documentId.slice(0, 64)} not found.`);
  if (!isUuid(documentId)) throw notFound;
  const [document] = await db
    .select()
    .from(packageDocuments)
    .where(and(eq(packageDocuments.id, documentId), eq(packageDocuments.packageId, packageId)))
    .limit(1);
  if (!document) throw notFound;
  return document;
}
