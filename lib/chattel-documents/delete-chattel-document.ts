import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chattelDocumentFiles, chattelDocuments } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { releaseStoredFiles } from "@/lib/storage/stored-files";
import { getChattelDocumentOrThrow } from "./get-chattel-document-or-throw";
import { serializeChattelDocument } from "./serialize-chattel-document";

/**
 * Deletes a document with its files, comments and outreach history (foreign keys cascade). Files
 * kept in S3 are removed after the commit: a failure there leaves an orphaned object, never a row
 * pointing at nothing.
 */
export async function deleteChattelDocument(
  db: Db,
  options: { principal: Principal; documentId: string; ipAddress?: string | null },
): Promise<void> {
  const { principal } = options;
  requireCapability(principal, "documents:write", "You do not have permission to delete documents.");
  const files = await db.transaction(async (tx) => {
    const document = await getChattelDocumentOrThrow(tx, {
      principal,
      documentId: options.documentId,
      capability: "documents:write",
      lock: true,
    });
    const stored = await tx
      .select({ storage: chattelDocumentFiles.storage, storageKey: chattelDocumentFiles.storageKey })
      .from(chattelDocumentFiles)
      .where(eq(chattelDocumentFiles.chattelDocumentId, document.id));
    await tx.delete(chattelDocuments).where(eq(chattelDocuments.id, document.id));
    await recordAuditEntry(tx, {
      organizationId: document.organizationId,
      actorUserId: principal.user.id,
      action: "document.deleted",
      entityType: "chattel_document",
      entityId: document.id,
      ipAddress: options.ipAddress,
      before: serializeChattelDocument(document),
    });
    return stored;
  });
  await releaseStoredFiles(db, files);
}
