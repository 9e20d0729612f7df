import type { Db } from "@/db/client";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getChattelDocumentOrThrow } from "@/lib/chattel-documents/get-chattel-document-or-throw";
import { renderOutreachMessage, type OutreachDraft, type RenderedOutreachMessage } from "./render-outreach-message";

/**
 * What `createOutreachMessage` would queue for this draft, without queueing anything: the same
 * checks (outreach:write, the document in scope, a recorded recipient, known variables) and the same
 * rendering, so a preview never shows something other than what is mailed.
 */
export async function previewOutreachMessage(
  db: Db,
  options: OutreachDraft & { principal: Principal; documentId: string },
): Promise<RenderedOutreachMessage> {
  const { principal, documentId, ...draft } = options;
  requireCapability(principal, "outreach:write", "You do not have permission to send outreach.");
  const document = await getChattelDocumentOrThrow(db, { principal, documentId, capability: "outreach:write" });
  return renderOutreachMessage(db, { principal, document, draft });
}
