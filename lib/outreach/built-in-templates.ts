import type { OutreachMessage } from "@/db/schema";

export type OutreachPurpose = OutreachMessage["purpose"];
export const OUTREACH_PURPOSES = ["request_document", "remind_unsigned", "custom"] as const satisfies readonly OutreachPurpose[];

/** The variables a template may use as `{{name}}`; anything else in braces is refused when saved. */
export const TEMPLATE_VARIABLES = [
  "recipientName",
  "borrowerName",
  "documentTitle",
  "documentType",
  "collateralDescription",
  "collateralSerial",
  "organizationName",
  "senderName",
  "message",
  "appUrl",
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** Used for a purpose until the organization saves its own version (PUT …/outreach/templates/{purpose}). */
export const BUILT_IN_TEMPLATES: Record<OutreachPurpose, { subject: string; body: string }> = {
  request_document: {
    subject: "Document needed: {{documentTitle}}",
    body:
      "Hello {{recipientName}},\n\n" +
      "To complete the file for {{borrowerName}} ({{collateralDescription}}), we still need: {{documentTitle}}.\n" +
      "{{message}}\n\n" +
      "You can reply to this email with the document attached.\n\n" +
      "{{senderName}}\n{{organizationName}}",
  },
  remind_unsigned: {
    subject: "Reminder: {{documentTitle}} is waiting for your signature",
    body:
      "Hello {{recipientName}},\n\n" +
      "This is a reminder that {{documentTitle}} has not been signed yet. Please sign it at {{appUrl}}.\n" +
      "{{message}}\n\n" +
      "{{senderName}}\n{{organizationName}}",
  },
  custom: {
    subject: "{{documentTitle}}",
    body: "Hello {{recipientName}},\n\n{{message}}\n\n{{senderName}}\n{{organizationName}}",
  },
};
