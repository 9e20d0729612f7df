import { z } from "@hono/zod-openapi";
import { FLOW_STEPS } from "@/db/schema/flows";
import { IsoDateTime, SafeString } from "./common";
import { AttachmentRequestInputListSchema } from "./attachments";
import { ExecutionModeSchema } from "./closings";
import { PackageDocumentSchema, UploadQuerySchema } from "./package-documents";
import { PaginationQuerySchema } from "./pagination";
import { SignerAuthMethodSchema, SignerRoleSchema } from "./signers";

// Templates (documents + signer roles) and flows (ordered signer steps).

export const TemplateRoleSchema = z
  .strictObject({
    key: SafeString.trim().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "expected 1-64 letters, digits, _ or -" }).openapi({ example: "buyer" }),
    label: SafeString.trim().min(1).max(100).openapi({ example: "Buyer" }),
    role: SignerRoleSchema,
    routingOrder: z.number().int().min(1).max(100),
    authMethod: SignerAuthMethodSchema.optional().openapi({
      description: "How the signer taking this role proves who they are; omitted follows the template's signerAuthMethod",
    }),
    attachments: AttachmentRequestInputListSchema.optional().openapi({
      description: "Documents asked of the signer taking this role in every package from the template (added to the signer's own `attachments`)",
    }),
  })
  .openapi("TemplateRole");

const Roles = z
  .array(TemplateRoleSchema)
  .max(20)
  .refine((roles) => new Set(roles.map((r) => r.key)).size === roles.length, { error: "role keys must be unique" });

export const TemplateSchema = z
  .object({
    id: z.string(),
    organizationId: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    roles: z.array(TemplateRoleSchema),
    signerAuthMethod: SignerAuthMethodSchema.openapi({ description: "Packages created from the template take it unless the request sets one" }),
    createdByUserId: z.string().nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Template");
export const TemplateDocumentSchema = PackageDocumentSchema.extend({
  executionMode: ExecutionModeSchema.openapi({ description: "How the document is executed in packages created from the template (they may change it while a draft)" }),
  transferable: z
    .boolean()
    .optional()
    .openapi({ description: "In the template's detail: whether packages from the template start with the document marked as a transferable record" }),
}).openapi("TemplateDocument");
export const TemplateDetailSchema = TemplateSchema.extend({ documents: z.array(TemplateDocumentSchema) }).openapi("TemplateDetail");
export const TemplateUploadQuerySchema = UploadQuerySchema.extend({
  executionMode: ExecutionModeSchema.optional().openapi({ description: "How packages from the template execute the document; default esign" }),
});
export const SetTemplateDocumentModeSchema = z.strictObject({ executionMode: ExecutionModeSchema }).openapi("SetTemplateDocumentModeRequest");
export const TemplateListSchema = z
  .object({ data: z.array(TemplateSchema), nextCursor: z.string().nullable(), cap: z.number().int().optional() })
  .openapi("TemplateList");

const OrgId = z
  .number({ error: "expected an integer organization id" })
  .int({ error: "expected an integer organization id" })
  .positive()
  .max(2_147_483_647);

export const CreateTemplateSchema = z
  .strictObject({
    organizationId: OrgId,
    name: SafeString.trim().min(1).max(200).openapi({ example: "Retail installment closing" }),
    description: SafeString.trim().max(2000).nullable().optional(),
    roles: Roles.default([]),
    signerAuthMethod: SignerAuthMethodSchema.optional().openapi({ description: "Default email_code" }),
  })
  .openapi("CreateTemplateRequest");
export const UpdateTemplateSchema = z
  .strictObject({
    name: SafeString.trim().min(1).max(200).optional(),
    description: SafeString.trim().max(2000).nullable().optional(),
    roles: Roles.optional(),
    signerAuthMethod: SignerAuthMethodSchema.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: "at least one field is required" })
  .openapi("UpdateTemplateRequest");

export const FlowStepSchema = z.enum(FLOW_STEPS);
const Steps = z
  .array(FlowStepSchema)
  .min(2)
  .max(FLOW_STEPS.length)
  .refine((s) => new Set(s).size === s.length, { error: "steps must not repeat" })
  .refine((s) => s.includes("sign"), { error: "a flow must include the sign step" })
  .refine((s) => s[s.length - 1] === "done", { error: "a flow must end with the done step" })
  .openapi({ example: ["review", "sign", "link_bank", "done"] });

export const FlowSchema = z
  .object({
    id: z.string(),
    organizationId: z.number().int(),
    name: z.string(),
    steps: z.array(FlowStepSchema),
    isDefault: z.boolean(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Flow");
export const FlowListSchema = z
  .object({ data: z.array(FlowSchema), nextCursor: z.string().nullable(), cap: z.number().int().optional() })
  .openapi("FlowList");
export const CreateFlowSchema = z
  .strictObject({
    organizationId: OrgId,
    name: SafeString.trim().min(1).max(200).openapi({ example: "Standard closing" }),
    steps: Steps,
    isDefault: z.boolean().default(false).openapi({ description: "Makes this the organization's default flow (the previous default is unset)" }),
  })
  .openapi("CreateFlowRequest");
export const UpdateFlowSchema = z
  .strictObject({ name: SafeString.trim().min(1).max(200).optional(), steps: Steps.optional(), isDefault: z.literal(true).optional() })
  .refine((v) => Object.keys(v).length > 0, { error: "at least one field is required" })
  .openapi("UpdateFlowRequest");

export const ListByOrganizationQuerySchema = PaginationQuerySchema.extend({
  organizationId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

export const UuidParamSchema = z.object({ id: SafeString.max(100).openapi({ param: { name: "id", in: "path" } }) });
