import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getSignerAssignmentOrThrow } from "./get-signer-assignment-or-throw";

export type GetAssignedDocumentFileOptions = { principal: Principal; packageId: string; documentId: string };

export type DocumentFile = { name: string; contentType: string; sha256: string; content: Uint8Array };

/** The bytes of a document in a package assigned to the caller. */
export async function getAssignedDocumentFile(db: Db, options: GetAssignedDocumentFileOptions): Promise<DocumentFile> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const { signing } = await getSignerAssignmentOrThrow(db, options);
  const notFound = NotFound(`Document ${options.documentId.slice(0, 64)} not found.`);
  if (!isUuid(options.documentId)) throw notFound;
  const [document] = await db
    .select({
      name: packageDocuments.name,
      contentType: packageDocuments.contentType,
      sha256: packageDocuments.sha256,
      content: packageDocuments.content,
    })
    .from(packageDocuments)
    .where(and(eq(packageDocuments.id, options.documentId), eq(packageDocuments.packageId, signing.id)))
    .limit(1);
  if (!document) throw notFound;
  return document;
}
