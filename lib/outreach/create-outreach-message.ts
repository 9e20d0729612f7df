import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { outreachMessages, type OutreachMessage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getChattelDocumentOrThrow } from "@/lib/chattel-documents/get-chattel-document-or-throw";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { renderOutreachMessage, type OutreachDraft } from "./render-outreach-message";
import { sendOutreachMessageJob } from "./send-outreach-message-job";

export type CreateOutreachMessageOptions = OutreachDraft & {
  principal: Principal;
  documentId: string;
};

/**
 * Renders a message from the organization's template (or the built-in) and queues it: the row
 * (status `queued`, a fresh reply token) and the `send-outreach-message` job commit together.
 */
export async function createOutreachMessage(db: Db, options: CreateOutreachMessageOptions): Promise<OutreachMessage> {
  const { principal, documentId, ...draft } = options;
  requireCapability(principal, "outreach:write", "You do not have permission to send outreach.");
  return db.transaction(async (tx) => {
    const document = await getChattelDocumentOrThrow(tx, { principal, documentId, capability: "outreach:write" });
    const { recipient, subject, body } = await renderOutreachMessage(tx, { principal, document, draft });
    const [message] = await tx
      .insert(outreachMessages)
      .values({
        organizationId: document.organizationId,
        chattelDocumentId: document.id,
        signingPackageId: document.signingPackageId,
        recipientKind: draft.recipientKind,
        recipientName: recipient.name,
        recipientEmail: recipient.email,
        purpose: draft.purpose,
        subject,
        body,
        // Lower-case hex: survives mail systems that change the case of the local part.
        replyToken: randomBytes(16).toString("hex"),
        createdByUserId: principal.user.id,
      })
      .returning();
    await enqueueJob(tx, sendOutreachMessageJob, { messageId: message!.id }, { idempotencyKey: message!.id });
    return message!;
  });
}
