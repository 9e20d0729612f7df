import { z } from "zod";
import { billingStatusEnum, planTierEnum } from "@/db/schema/billing";

/**
 * The outbound event catalogue (docs/webhooks.md): every type an endpoint can subscribe to, with the
 * schema of its `data`. A type name never changes once published. Payloads carry ids and states
 * that a receiver fetches more with through `/v1`, never document bytes, links, codes or tokens.
 * A plain module (no database): the OpenAPI document and the workspace page read it too.
 */
const packageRef = { packageId: z.uuid(), organizationId: z.number().int() };
const signerRef = { ...packageRef, signerId: z.uuid() };
/**
 * A control change of a transferable record (docs/transferable-records.md), sent to each organization
 * it concerns: `organizationId` is the receiving one. `from`/`to` are the entry's organizations (who
 * held control and who is offered, takes, is pledged or released it; `to` is null for a conversion to
 * paper); `seq` is the entry's place in the record's control log.
 */
const controlChange = z.strictObject({
  ...packageRef,
  recordId: z.uuid(),
  documentId: z.uuid(),
  seq: z.number().int(),
  controllerOrganizationId: z.number().int(),
  fromOrganizationId: z.number().int().nullable(),
  toOrganizationId: z.number().int().nullable(),
});

export const WEBHOOK_EVENT_SCHEMAS = {
  "package.created": z.strictObject({ ...packageRef }),
  "package.sent": z.strictObject({ ...packageRef }),
  "package.cancelled": z.strictObject({ ...packageRef }),
  "package.declined": z.strictObject({ ...packageRef }),
  "package.expired": z.strictObject({ ...packageRef }),
  "package.completed": z.strictObject({ ...packageRef }),
  "package.sealed": z.strictObject({ ...packageRef }),
  "signer.opened": z.strictObject({ ...signerRef }),
  "signer.consented": z.strictObject({ ...signerRef }),
  "signer.signed": z.strictObject({ ...signerRef, documentId: z.uuid(), eSignatureId: z.uuid() }),
  "signer.declined": z.strictObject({ ...signerRef }),
  "signer.locked_out": z.strictObject({ ...signerRef }),
  "signer.texts_stopped": z.strictObject({ ...signerRef }),
  "document.acknowledged": z.strictObject({ ...packageRef, documentId: z.uuid() }),
  "attachment.added": z.strictObject({ ...signerRef, attachmentId: z.uuid(), requestId: z.uuid() }),
  "attachment.accepted": z.strictObject({ ...signerRef, attachmentId: z.uuid(), requestId: z.uuid() }),
  "attachment.rejected": z.strictObject({ ...signerRef, attachmentId: z.uuid(), requestId: z.uuid() }),
  "scanback.received": z.strictObject({ ...packageRef, uploadId: z.string(), pages: z.number().int() }),
  "scanback.accepted": z.strictObject({ ...packageRef, documentId: z.uuid() }),
  "scanback.rejected": z.strictObject({ ...packageRef, documentId: z.uuid() }),
  "bank.linked": z.strictObject({ organizationId: z.number().int(), signerId: z.uuid(), packageId: z.uuid(), bankItemId: z.string() }),
  "transferable_record.transfer_offered": controlChange,
  "transferable_record.transfer_accepted": controlChange,
  "transferable_record.transfer_declined": controlChange,
  "transferable_record.transfer_withdrawn": controlChange,
  "transferable_record.pledged": controlChange,
  "transferable_record.released": controlChange,
  "transferable_record.converted_to_paper": controlChange,
  "billing.status_changed": z.strictObject({
    organizationId: z.number().int(),
    status: z.enum(billingStatusEnum.enumValues),
    planTier: z.enum(planTierEnum.enumValues),
    previousStatus: z.enum(billingStatusEnum.enumValues),
    previousPlanTier: z.enum(planTierEnum.enumValues),
  }),
  "webhook.test": z.strictObject({ endpointId: z.uuid(), organizationId: z.number().int() }),
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_SCHEMAS;
export type WebhookEventData<T extends WebhookEventType> = z.input<(typeof WEBHOOK_EVENT_SCHEMAS)[T]>;

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENT_SCHEMAS) as WebhookEventType[];

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "package.created": "A signing package was created.",
  "package.sent": "A package was sent: its signers were invited.",
  "package.cancelled": "A package was cancelled by its manager.",
  "package.declined": "A package closed because a signer declined it.",
  "package.expired": "A package reached its expiry date unsigned.",
  "package.completed": "Every document of a package reached its final state.",
  "package.sealed": "The sealed copies and certificate of a completed package are ready.",
  "signer.opened": "A signer opened the package for the first time.",
  "signer.consented": "A signer accepted electronic records and signatures.",
  "signer.signed": "A signer signed one document electronically.",
  "signer.declined": "A signer declined the package.",
  "signer.locked_out": "A signer was locked out for a while after too many wrong one-time codes.",
  "signer.texts_stopped": "A signer stopped text messages (replied STOP).",
  "document.acknowledged": "A review-only document was acknowledged.",
  "attachment.added": "A signer added a file to a requested attachment; it awaits review.",
  "attachment.accepted": "A manager accepted a signer's attachment.",
  "attachment.rejected": "A manager rejected a signer's attachment (the signer is told the reason and can send another).",
  "scanback.received": "Scanned pages of wet-signed documents arrived for a package.",
  "scanback.accepted": "A scanned document was accepted.",
  "scanback.rejected": "A scanned document was rejected.",
  "bank.linked": "A signer linked a bank account.",
  "transferable_record.transfer_offered": "The controller of a transferable record offered control to another organization (sent to both).",
  "transferable_record.transfer_accepted": "The offered organization accepted: it now controls the record (sent to both).",
  "transferable_record.transfer_declined": "The offered organization declined: control stays (sent to both).",
  "transferable_record.transfer_withdrawn": "The controller withdrew its offer (sent to both).",
  "transferable_record.pledged": "The controller pledged the record to a secured party (sent to both).",
  "transferable_record.released": "The secured party released its pledge (sent to both).",
  "transferable_record.converted_to_paper": "The controller converted the record to paper: the authoritative copy is retired.",
  "billing.status_changed": "The organization's subscription status or plan changed (from the payment provider's events).",
  "webhook.test": "Sent by \"send a test event\"; never emitted otherwise.",
};

export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]]);
