import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { inboundEmails, outreachMessages } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getChattelDocumentOrThrow } from "@/lib/chattel-documents/get-chattel-document-or-throw";

export type OutreachReply = {
  id: string;
  outreachMessageId: string;
  from: string | null;
  subject: string;
  text: string;
  receivedAt: Date;
};

/**
 * The inbound replies to a document's outreach messages (threaded by reply token when they arrived,
 * `routeInboundEmail`), oldest first. Only replies of the given messages, which must be the document's.
 */
export async function listOutreachReplies(
  db: Db,
  options: { principal: Principal; documentId: string; messageIds: string[] },
): Promise<OutreachReply[]> {
  requireCapability(options.principal, "outreach:read", "You do not have permission to read outreach.");
  const document = await getChattelDocumentOrThrow(db, { ...options, capability: "outreach:read" });
  if (options.messageIds.length === 0) return [];
  const rows = await db
    .select({
      id: inboundEmails.id,
      outreachMessageId: inboundEmails.outreachMessageId,
      from: inboundEmails.from,
      subject: inboundEmails.subject,
      text: inboundEmails.text,
      receivedAt: inboundEmails.receivedAt,
    })
    .from(inboundEmails)
    .innerJoin(outreachMessages, eq(outreachMessages.id, inboundEmails.outreachMessageId))
    .where(and(eq(outreachMessages.chattelDocumentId, document.id), inArray(inboundEmails.outreachMessageId, options.messageIds)))
    .orderBy(asc(inboundEmails.receivedAt), asc(inboundEmails.id));
  return rows.map((row) => ({ ...row, outreachMessageId: row.outreachMessageId! }));
}
