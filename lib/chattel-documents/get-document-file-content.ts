import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chattelDocumentFiles } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { openObject, readObject, type StoredDownload } from "@/lib/storage/objects";
import { getChattelDocumentOrThrow } from "./get-chattel-document-or-throw";


/**
 * One file of a document the caller may read, for download (404 before anything is read): a file in
 * the bucket is streamed from it or presigned, one in `file_objects` (the embedded default) is
 * streamed in slices, and one written before files were objects, still inline in its row, is sent
 * from the row.
 */
export async function getDocumentFileDownload(db: Db, options: { principal: Principal; documentId: string; fileId: string }): Promise<StoredDownload> {
  requireCapability(options.principal, "documents:read", "You do not have permission to read documents.");
  const document = await getChattelDocumentOrThrow(db, { ...options, capability: "documents:read" });
  const [file] = await db
    .select({ fileName: chattelDocumentFiles.fileName, contentType: chattelDocumentFiles.contentType, sha256: chattelDocumentFiles.sha256, storageKey: chattelDocumentFiles.storageKey })
    .from(chattelDocumentFiles)
    .where(and(eq(chattelDocumentFiles.id, options.fileId), eq(chattelDocumentFiles.chattelDocumentId, document.id)))
    .limit(1);
  if (!file) throw NotFound(`File ${options.fileId} not found.`);
  const base = { fileName: file.fileName, contentType: file.contentType, sha256: file.sha256 };
  if (file.storageKey) {
    const key = file.storageKey;
    return { ...base, storageKey: key, read: () => readObject(db, key), open: () => openObject(db, key) };
  }
  const read = async () => {
    const [row] = await db.select({ content: chattelDocumentFiles.content }).from(chattelDocumentFiles).where(eq(chattelDocumentFiles.id, options.fileId));
    if (!row?.content) throw NotFound(`File ${options.fileId} not found.`);
    return row.content;
  };
  return { ...base, storageKey: null, read };
}
