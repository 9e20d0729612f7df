import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chattelDocumentFiles, type ChattelDocumentFile } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { fileStorageFor } from "@/lib/storage/file-storage";
import { getChattelDocumentOrThrow } from "./get-chattel-document-or-throw";

/** One file of a document the caller may read, with its bytes from whichever storage holds them. */
export async function getDocumentFileContent(
  db: Db,
  options: { principal: Principal; documentId: string; fileId: string },
): Promise<{ file: ChattelDocumentFile; bytes: Uint8Array }> {
  requireCapability(options.principal, "documents:read", "You do not have permission to read documents.");
  const document = await getChattelDocumentOrThrow(db, { ...options, capability: "documents:read" });
  const [file] = await db
    .select()
    .from(chattelDocumentFiles)
    .where(and(eq(chattelDocumentFiles.id, options.fileId), eq(chattelDocumentFiles.chattelDocumentId, document.id)))
    .limit(1);
  if (!file) throw NotFound(`File ${options.fileId} not found.`);
  return { file, bytes: await fileStorageFor(file.storage).get(file) };
}
