import { and, asc, eq, getTableColumns, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { chattelDocumentFiles } from "@/db/schema";
import { decodeCursor, toPage, type Page } from "@/lib/api/pagination";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getChattelDocumentOrThrow } from "./get-chattel-document-or-throw";
import { serializeDocumentFile, type DocumentFileJson } from "./serialize-document-file";

// Listing never reads the bytes.
const { content: _content, storageKey: _storageKey, ...metadataColumns } = getTableColumns(chattelDocumentFiles);

/** A document's files, oldest first, keyset-paginated. */
export async function listDocumentFiles(
  db: Db,
  options: { principal: Principal; documentId: string; limit: number; cursor?: string },
): Promise<Page<DocumentFileJson>> {
  requireCapability(options.principal, "documents:read", "You do not have permission to read documents.");
  const document = await getChattelDocumentOrThrow(db, { ...options, capability: "documents:read" });
  const conditions: SQL[] = [eq(chattelDocumentFiles.chattelDocumentId, document.id)];
  if (options.cursor) conditions.push(gt(chattelDocumentFiles.id, decodeCursor(options.cursor, z.tuple([z.uuid()]))[0]));
  const rows = await db
    .select(metadataColumns)
    .from(chattelDocumentFiles)
    .where(and(...conditions))
    .orderBy(asc(chattelDocumentFiles.id))
    .limit(options.limit + 1);
  return toPage(rows, options.limit, (row) => [row.id], serializeDocumentFile);
}
