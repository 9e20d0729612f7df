import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, templateDocuments } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { objectDownload, type StoredDownload } from "@/lib/storage/objects";
import { getOwnedDocumentOrThrow, loadDocumentOwner, requireOwnerCapability, type OwnedDocumentRef } from "./document-owner";

/**
 * The file of one document of a package the caller manages or of a template they read (404 out of
 * scope, before anything is read): its object in storage, streamed or presigned by the response.
 */
export async function getDocumentFile(db: Db, options: OwnedDocumentRef & { principal: Principal }): Promise<StoredDownload> {
  requireOwnerCapability(options.principal, options.owner, "read");
  const owner = await loadDocumentOwner(db, { ...options, access: "read" });
  const document = await getOwnedDocumentOrThrow(db, owner, options.documentId);
  const table = options.owner === "package" ? packageDocuments : templateDocuments;
  const ownerColumn = options.owner === "package" ? packageDocuments.packageId : templateDocuments.templateId;
  const [row] = await db
    .select({ storageKey: table.storageKey })
    .from(table)
    .where(and(eq(table.id, document.id), eq(ownerColumn, owner.row.id)));
  return objectDownload(db, { fileName: document.name, contentType: document.contentType, sha256: document.sha256, storageKey: row!.storageKey });
}
