import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chattelDocumentFiles } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { releaseStoredFiles } from "@/lib/storage/stored-files";
import { getChattelDocumentOrThrow } from "./get-chattel-document-or-throw";
import { serializeDocumentFile } from "./serialize-document-file";

/** Deletes one file of a document: the row in a transaction, then the stored object (best effort). */
export async function deleteDocumentFile(
  db: Db,
  options: { principal: Principal; documentId: string; fileId: string; ipAddress?: string | null },
): Promise<void> {
  const { principal } = options;
  requireCapability(principal, "documents:write", "You do not have permission to delete document files.");
  const deleted = await db.transaction(async (tx) => {
    const document = await getChattelDocumentOrThrow(tx, { principal, documentId: options.documentId, capability: "documents:write" });
    const [file] = await tx
      .delete(chattelDocumentFiles)
      .where(and(eq(chattelDocumentFiles.id, options.fileId), eq(chattelDocumentFiles.chattelDocumentId, document.id)))
      .returning();
    if (!file) throw NotFound(`File ${options.fileId} not found.`);
    await recordAuditEntry(tx, {
      organizationId: document.organizationId,
      actorUserId: principal.user.id,
      action: "document.file_deleted",
      entityType: "chattel_document_file",
      entityId: file.id,
      ipAddress: options.ipAddress,
      before: serializeDocumentFile(file),
    });
    return file;
  });
  await releaseStoredFiles(db, [deleted]);
}
