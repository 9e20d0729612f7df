import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getSigningOrThrow } from "./get-signing-or-throw";

/** The stored bytes of one document of a package the caller manages. */
export async function getPackageDocumentFile(db: Db, options: { principal: Principal; packageId: string; documentId: string }) {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const notFound = NotFound(`Document ${options.documentId} not found.`);
  if (!isUuid(options.documentId)) throw notFound;
  const [document] = await db
    .select({
      name: packageDocuments.name,
      contentType: packageDocuments.contentType,
      content: packageDocuments.content,
      sha256: packageDocuments.sha256,
    })
    .from(packageDocuments)
    .where(and(eq(packageDocuments.id, options.documentId), eq(packageDocuments.packageId, signing.id)))
    .limit(1);
  if (!document) throw notFound;
  return document;
}
