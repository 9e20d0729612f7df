import type { OutreachMessage } from "@/db/schema";
import { iso } from "@/lib/iso";

export type OutreachMessageJson = ReturnType<typeof serializeOutreachMessage>;

/** The reply token is not exposed: it is the secret part of the reply address. */
export function serializeOutreachMessage(m: OutreachMessage) {
  return {
    id: m.id,
    organizationId: m.organizationId,
    documentId: m.chattelDocumentId,
    recipientKind: m.recipientKind,
    recipientName: m.recipientName,
    recipientEmail: m.recipientEmail,
    purpose: m.purpose,
    subject: m.subject,
    body: m.body,
    status: m.status,
    sentAt: iso(m.sentAt),
    repliedAt: iso(m.repliedAt),
    lastError: m.lastError,
    createdByUserId: m.createdByUserId,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}
