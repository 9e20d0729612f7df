import type { Db } from "@/db/client";
import { log } from "@/lib/log";
import { emitEvent } from "./emit-event";
import { WEBHOOK_EVENT_SCHEMAS, type WebhookEventType } from "./event-types";

/** The parts of an audit entry (lib/audit/record-audit-entry.ts) an event is made of. */
type AuditInput = { organizationId: number | null; packageId?: string | null; action: string; entityId: string; after?: unknown };

type Mapped = { type: WebhookEventType; data: Record<string, unknown> };

const PACKAGE_EVENTS: Partial<Record<string, WebhookEventType>> = {
  "signing.created": "package.created",
  "signing.sent": "package.sent",
  "signing.cancelled": "package.cancelled",
  "signing.declined": "package.declined",
  "signing.expired": "package.expired",
  "signing.completed": "package.completed",
  "signing.sealed": "package.sealed",
};
const SIGNER_EVENTS: Partial<Record<string, WebhookEventType>> = {
  "signer.viewed": "signer.opened",
  "signer.consented": "signer.consented",
  "signer.declined": "signer.declined",
  "signer.texts_stopped": "signer.texts_stopped",
};
const DOCUMENT_EVENTS: Partial<Record<string, WebhookEventType>> = {
  "document.acknowledged": "document.acknowledged",
  "document.accepted": "scanback.accepted",
  "document.rejected": "scanback.rejected",
};

const field = (value: unknown, key: string): unknown => (value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined);

/** The webhook event an audit entry stands for, when it stands for one; only ids leave, never the entry's details. */
function eventOf(entry: AuditInput & { organizationId: number; packageId: string }): Mapped | null {
  const base = { packageId: entry.packageId, organizationId: entry.organizationId };
  const packageType = PACKAGE_EVENTS[entry.action];
  if (packageType) return { type: packageType, data: base };
  const signerType = SIGNER_EVENTS[entry.action];
  if (signerType) return { type: signerType, data: { ...base, signerId: entry.entityId } };
  const documentType = DOCUMENT_EVENTS[entry.action];
  if (documentType) return { type: documentType, data: { ...base, documentId: entry.entityId } };
  if (entry.action === "esignature.recorded") {
    return { type: "signer.signed", data: { ...base, signerId: field(entry.after, "signerId"), documentId: field(entry.after, "documentId"), eSignatureId: entry.entityId } };
  }
  if (entry.action === "attachment.added" || entry.action === "attachment.accepted" || entry.action === "attachment.rejected") {
    return { type: entry.action, data: { ...base, signerId: field(entry.after, "signerId"), attachmentId: entry.entityId, requestId: field(entry.after, "requestId") } };
  }
  if (entry.action === "scanback.uploaded") {
    return { type: "scanback.received", data: { ...base, uploadId: field(entry.after, "uploadId"), pages: field(entry.after, "pages") } };
  }
  return null;
}

/**
 * The package's audit trail is where its domain events are already recorded, each in the
 * transaction of its change: an entry that stands for a webhook event emits it there too, so the
 * event commits (and is delivered) exactly when the change does.
 */
export async function emitAuditEvent(tx: Db, entry: AuditInput): Promise<void> {
  if (entry.organizationId === null || !entry.packageId) return;
  const mapped = eventOf({ ...entry, organizationId: entry.organizationId, packageId: entry.packageId });
  if (!mapped) return;
  // A payload that does not fit its schema is our bug: it must not undo the signer's or manager's change.
  if (!WEBHOOK_EVENT_SCHEMAS[mapped.type].safeParse(mapped.data).success) {
    log.error("webhook event skipped: its payload does not match the catalogue", { type: mapped.type, action: entry.action });
    return;
  }
  await emitEvent(tx, mapped.type, mapped.data as never);
}
