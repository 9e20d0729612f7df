import { z } from "@hono/zod-openapi";
import { outreachRecipientKindEnum, outreachStatusEnum } from "@/db/schema/outreach";
import { OUTREACH_PURPOSES, TEMPLATE_VARIABLES } from "@/lib/outreach/built-in-templates";
import { IsoDateTime, SafeString } from "./common";

// Outreach to a document's borrower, co-borrowers and dealer contacts, and the organization's templates.

export const OutreachPurposeSchema = z.enum(OUTREACH_PURPOSES).openapi("OutreachPurpose");
export const RecipientKindSchema = z.enum(outreachRecipientKindEnum.enumValues).openapi("OutreachRecipientKind");

const variables = `Variables: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(", ")}.`;

export const OutreachMessageSchema = z
  .object({
    id: z.string(),
    organizationId: z.number().int(),
    documentId: z.string().nullable(),
    recipientKind: RecipientKindSchema,
    recipientName: z.string().nullable(),
    recipientEmail: z.string(),
    purpose: OutreachPurposeSchema,
    subject: z.string(),
    body: z.string(),
    status: z.enum(outreachStatusEnum.enumValues),
    sentAt: IsoDateTime.nullable(),
    repliedAt: IsoDateTime.nullable(),
    lastError: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("OutreachMessage");

export const OutreachMessageListSchema = z
  .object({ data: z.array(OutreachMessageSchema), nextCursor: z.string().nullable() })
  .openapi("OutreachMessageList");

export const CreateOutreachMessageSchema = z
  .strictObject({
    recipientKind: RecipientKindSchema,
    recipientEmail: z.email().max(320).optional().openapi({ description: "Which co-borrower or dealer contact, when there are several" }),
    purpose: OutreachPurposeSchema,
    message: SafeString.trim().min(1).max(5000).optional().openapi({ description: "Fills {{message}}; required for custom without a body" }),
    subject: SafeString.trim().min(1).max(300).optional().openapi({ description: `Overrides the template's subject. ${variables}` }),
    body: SafeString.trim().min(1).max(20_000).optional().openapi({ description: `Overrides the template's body. ${variables}` }),
  })
  .superRefine((body, ctx) => {
    if (body.purpose === "custom" && body.message === undefined && body.body === undefined) {
      ctx.addIssue({ code: "custom", path: ["message"], message: "required for a custom message (or give a body)" });
    }
  })
  .openapi("CreateOutreachMessageRequest");

export const OutreachTemplateSchema = z
  .object({
    organizationId: z.number().int(),
    purpose: OutreachPurposeSchema,
    subject: z.string(),
    body: z.string(),
    source: z.enum(["built_in", "organization"]),
    updatedAt: IsoDateTime.nullable(),
  })
  .openapi("OutreachTemplate");

export const OutreachTemplateListSchema = z.object({ data: z.array(OutreachTemplateSchema) }).openapi("OutreachTemplateList");

export const SaveOutreachTemplateSchema = z
  .strictObject({
    subject: SafeString.trim().min(1).max(300).openapi({ example: "Document needed: {{documentTitle}}" }),
    body: SafeString.trim().min(1).max(20_000).openapi({ description: variables }),
  })
  .openapi("SaveOutreachTemplateRequest");

export const TemplatePurposeParamSchema = z.object({
  purpose: OutreachPurposeSchema.openapi({ param: { name: "purpose", in: "path" } }),
});
