import { z } from "@hono/zod-openapi";
import { ClosingAppointmentSchema, ExecutionModeSchema } from "./closings";
import { IsoDateTime, SafeString } from "./common";
import { PackageDocumentSchema } from "./package-documents";
import { PaginationQuerySchema } from "./pagination";
import { NewPackageSignerSchema, SignerAuthMethodSchema, SignerSchema } from "./signers";

export const SigningStatusSchema = z.enum(["draft", "sent", "in_progress", "completed", "cancelled", "declined", "expired"]);

export const SigningSchema = z
  .object({
    id: z.string(),
    organizationId: z.number().int(),
    companyId: z.number().int(),
    locationId: z.number().int(),
    title: z.string(),
    status: SigningStatusSchema,
    templateId: z.string().nullable(),
    flowId: z.string().nullable(),
    message: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    sentAt: IsoDateTime.nullable(),
    completedAt: IsoDateTime.nullable(),
    cancelledAt: IsoDateTime.nullable(),
    cancelReason: z.string().nullable(),
    declinedAt: IsoDateTime.nullable(),
    expiresAt: IsoDateTime.nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Signing");

export const SigningDetailSchema = SigningSchema.extend({
  signers: z.array(SignerSchema),
  documents: z.array(PackageDocumentSchema),
}).openapi("SigningDetail");

export const SigningListSchema = z
  .object({
    data: z.array(SigningSchema),
    nextCursor: z.string().nullable(),
    cap: z.number().int().optional().openapi({ description: "Present when the admin read cap applies: the list stops after this many rows." }),
  })
  .openapi("SigningList");

const PlaceId = (what: string) =>
  z
    .number({ error: `expected an integer ${what} id` })
    .int({ error: `expected an integer ${what} id` })
    .positive()
    .max(2_147_483_647);

const Title = SafeString.trim().min(1).max(200);
const Message = SafeString.trim().max(2000);

export const CreateSigningSchema = z
  .strictObject({
    locationId: PlaceId("location").openapi({ example: 1 }),
    title: Title.optional().openapi({ example: "Retail installment contract — J. Doe" }),
    message: Message.optional(),
    templateId: z.uuid({ error: "expected a template id" }).optional(),
    flowId: z.uuid({ error: "expected a flow id" }).optional().openapi({ description: "Defaults to the organization's default flow" }),
    signerAuthMethod: SignerAuthMethodSchema.optional().openapi({ description: "How signers prove who they are unless a signer sets authMethod; default email_code (or the template's)" }),
    signers: z.array(NewPackageSignerSchema).max(50).optional(),
    documents: z
      .array(
        z.strictObject({
          name: SafeString.trim().min(1).max(200),
          contentBase64: z.base64({ error: "expected the PDF's bytes as base64" }).min(1),
          executionMode: ExecutionModeSchema.optional().openapi({ description: "How the document is executed; default esign" }),
        }),
      )
      .max(10)
      .optional()
      .openapi({
        description:
          "PDFs to attach, as base64, after any template documents. The whole request body is capped at 1 MiB; " +
          "attach larger files with POST /v1/signing/manager/signings/{id}/documents.",
      }),
    appointment: ClosingAppointmentSchema.optional().openapi({ description: "Hybrid closings: the closing appointment and when e-signing opens" }),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.signers?.forEach((signer, i) => {
      const email = signer.email.toLowerCase();
      if (seen.has(email)) ctx.addIssue({ code: "custom", path: ["signers", i, "email"], message: "each email may appear only once" });
      seen.add(email);
      if (signer.templateRole !== undefined && body.templateId === undefined) {
        ctx.addIssue({ code: "custom", path: ["signers", i, "templateRole"], message: "needs a templateId" });
      }
    });
  })
  .openapi("CreateSigningRequest");

export const UpdateSigningSchema = z
  .strictObject({
    title: Title.optional(),
    message: Message.nullable().optional(),
    flowId: z.uuid({ error: "expected a flow id" }).nullable().optional(),
    expiresAt: z.iso
      .datetime({ offset: true, error: "expected an ISO 8601 date-time" })
      .refine((value) => new Date(value).getTime() > Date.now(), { error: "must be in the future" })
      .nullable()
      .optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: "at least one field is required" })
  .openapi("UpdateSigningRequest");

export const CancelSigningSchema = z
  .strictObject({ reason: SafeString.trim().min(1).max(1000).optional() })
  .openapi("CancelSigningRequest");

export const RemindSignersResultSchema = z
  .object({
    remindedSignerIds: z.array(z.uuid()).openapi({ description: "Signers emailed by this call" }),
    alreadyRemindedSignerIds: z.array(z.uuid()).openapi({ description: "Signers of the current group already reminded within the hour" }),
  })
  .openapi("RemindSignersResult");

export const ListSigningsQuerySchema = PaginationQuerySchema.extend({
  status: SigningStatusSchema.optional(),
  locationId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  companyId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  q: SafeString.trim().min(1).max(200).optional().openapi({ description: "Matches the title or a signer's name (case-insensitive)" }),
  createdFrom: z.iso
    .date({ error: "expected a date (YYYY-MM-DD)" })
    .optional()
    .openapi({ description: "Packages created on or after this day (UTC)", example: "2026-11-01" }),
  createdTo: z.iso
    .date({ error: "expected a date (YYYY-MM-DD)" })
    .optional()
    .openapi({ description: "Packages created on or before this day (UTC, the whole day included)", example: "2026-11-30" }),
});

export const SigningIdParamSchema = z.object({
  id: SafeString.max(100).openapi({ param: { name: "id", in: "path" }, example: "01935f4e-8b1c-7d2a-9f00-1a2b3c4d5e6f" }),
});
