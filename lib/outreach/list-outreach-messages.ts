import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { outreachMessages } from "@/db/schema";
import { decodeCursor, toPage, type Page } from "@/lib/api/pagination";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getChattelDocumentOrThrow } from "@/lib/chattel-documents/get-chattel-document-or-throw";
import { serializeOutreachMessage, type OutreachMessageJson } from "./serialize-outreach-message";

/** A document's outreach history, newest first. */
export async function listOutreachMessages(
  db: Db,
  options: { principal: Principal; documentId: string; limit: number; cursor?: string },
): Promise<Page<OutreachMessageJson>> {
  requireCapability(options.principal, "outreach:read", "You do not have permission to read outreach.");
  const document = await getChattelDocumentOrThrow(db, { ...options, capability: "outreach:read" });
  const conditions: SQL[] = [eq(outreachMessages.chattelDocumentId, document.id)];
  if (options.cursor) conditions.push(lt(outreachMessages.id, decodeCursor(options.cursor, z.tuple([z.uuid()]))[0]));
  const rows = await db
    .select()
    .from(outreachMessages)
    .where(and(...conditions))
    .orderBy(desc(outreachMessages.id))
    .limit(options.limit + 1);
  return toPage(rows, options.limit, (row) => [row.id], serializeOutreachMessage);
}
