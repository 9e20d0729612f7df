import { and, asc, eq, getTableColumns, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { chattelDocumentFiles, type ChattelDocumentFile } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { cursorBinding, decodeKeyCursor } from "@/lib/pagination/keyset-cursor";
import { toKeysetPage, type KeysetPage } from "@/lib/pagination/keyset-page";
import { getChattelDocumentOrThrow } from "./get-chattel-document-or-throw";

/** A file's metadata: listing never reads the bytes. */
export type DocumentFileMetadata = Omit<ChattelDocumentFile, "content" | "storageKey">;

const { content: _content, storageKey: _storageKey, ...metadataColumns } = getTableColumns(chattelDocumentFiles);

/** A document's files, oldest first, keyset-paginated. */
export async function listDocumentFiles(
  db: Db,
  options: { principal: Principal; documentId: string; limit: number; cursor?: string },
): Promise<KeysetPage<DocumentFileMetadata>> {
  requireCapability(options.principal, "documents:read", "You do not have permission to read documents.");
  const document = await getChattelDocumentOrThrow(db, { ...options, capability: "documents:read" });
  const conditions: SQL[] = [eq(chattelDocumentFiles.chattelDocumentId, document.id)];
  const binding = cursorBinding("document-files", options);
  const after = decodeKeyCursor(options.cursor, z.uuid(), binding);
  if (after !== null) conditions.push(gt(chattelDocumentFiles.id, after));
  const rows = await db
    .select(metadataColumns)
    .from(chattelDocumentFiles)
    .where(and(...conditions))
    .orderBy(asc(chattelDocumentFiles.id))
    .limit(options.limit + 1);
  return toKeysetPage(rows, options.limit, (row) => [row.id], binding);
}
