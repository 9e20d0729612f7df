import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { outreachMessages, type OutreachMessage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { cursorBinding, decodeKeyCursor } from "@/lib/pagination/keyset-cursor";
import { toKeysetPage, type KeysetPage } from "@/lib/pagination/keyset-page";
import { getChattelDocumentOrThrow } from "@/lib/chattel-documents/get-chattel-document-or-throw";

/** A document's outreach history, newest first. */
export async function listOutreachMessages(
  db: Db,
  options: { principal: Principal; documentId: string; limit: number; cursor?: string },
): Promise<KeysetPage<OutreachMessage>> {
  requireCapability(options.principal, "outreach:read", "You do not have permission to read outreach.");
  const document = await getChattelDocumentOrThrow(db, { ...options, capability: "outreach:read" });
  const conditions: SQL[] = [eq(outreachMessages.chattelDocumentId, document.id)];
  const binding = cursorBinding("outreach-messages", options);
  const after = decodeKeyCursor(options.cursor, z.uuid(), binding);
  if (after !== null) conditions.push(lt(outreachMessages.id, after));
  const rows = await db
    .select()
    .from(outreachMessages)
    .where(and(...conditions))
    .orderBy(desc(outreachMessages.id))
    .limit(options.limit + 1);
  return toKeysetPage(rows, options.limit, (row) => [row.id], binding);
}
