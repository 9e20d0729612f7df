import { z } from "@hono/zod-openapi";
import { signingStatusEnum } from "@/db/schema/signing-packages";
import { ClosingAppointmentSchema, ExecutionModeSchema } from "./closings";
import { IsoDateTime, SafeString } from "./common";
import { PackageDocumentSchema } from "./package-documents";
import { PaginationQuerySchema } from "./pagination";
import type { SignerProofMethod } from "@/db/schema/signer-auth-method";
import { signerProofGaps } from "@/lib/signer-access/signer-proof-gaps";
import { NewPackageSignerSchema, newPackageSignerFields, refineSignerAccess, SignerAuthMethodSchema, SignerSchema } from "./signers";

export const SigningStatusSchema = z.enum(signingStatusEnum.enumValues);

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
    signerAuthMethod: SignerAuthMethodSchema.openapi({ description: "How signers prove who they are unless a signer sets its own authMethod" }),
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

/** A signer in the package detail: the signer plus whether wrong codes have locked their proof step. */
export const SigningDetailSignerSchema = SignerSchema.extend({
  authLockedUntil: IsoDateTime.nullable().openapi({
    description: "Set while five wrong codes lock this signer's proof step (15 minutes); null otherwise",
  }),
}).openapi("SigningDetailSigner");

export const SigningDetailSchema = SigningSchema.extend({
  signers: z.array(SigningDetailSignerSchema),
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

/** The fields of a create request (also the package form's, with its own signer rows). */
const createSigningFields = {
  locationId: PlaceId("location").openapi({ example: 1 }),
  title: Title.optional().openapi({ example: "Retail installment contract — J. Doe" }),
  message: Message.optional(),
  templateId: z.uuid({ error: "expected a template id" }).optional(),
  flowId: z.uuid({ error: "expected a flow id" }).optional().openapi({ description: "Defaults to the organization's default flow" }),
  signerAuthMethod: SignerAuthMethodSchema.optional().openapi({ description: "How signers prove who they are unless a signer sets authMethod; default email_code (or the template's)" }),
  signers: z.array(NewPackageSignerSchema).max(50).optional(),
  documents: z
    .array(
      z
        .strictObject({
          name: SafeString.trim().min(1).max(200),
          contentBase64: z.base64({ error: "expected the PDF's bytes as base64" }).min(1).optional().openapi({ description: "The PDF inline, for small files" }),
          uploadId: z.uuid({ error: "expected an upload id (from POST /v1/uploads)" }).optional().openapi({ description: "A direct upload (POST /v1/uploads), for files of any size up to 100 MiB" }),
          executionMode: ExecutionModeSchema.optional().openapi({ description: "How the document is executed; default esign" }),
        })
        .refine((d) => (d.contentBase64 === undefined) !== (d.uploadId === undefined), { error: "give exactly one of contentBase64 and uploadId" }),
    )
    .max(10)
    .optional()
    .openapi({
      description:
        "PDFs to attach after any template documents: each by `uploadId` (a direct upload, up to 100 MiB and 500 pages; the bytes never " +
        "pass through this request) or, for small files, inline as `contentBase64` (the whole request body is capped at 1 MiB).",
    }),
  appointment: ClosingAppointmentSchema.optional().openapi({ description: "Hybrid closings: the closing appointment and when e-signing opens" }),
};

type SigningBody = {
  templateId?: string;
  signerAuthMethod?: SignerProofMethod;
  signers?: { email: string; templateRole?: string; authMethod?: SignerProofMethod; accessCode?: string; phone?: string; keepsAccessCode?: boolean }[];
};

/**
 * Each email once; a template role needs the template; a signer who follows the package's method
 * (when the request names it) has the access code or phone that method needs.
 */
function refineSigningBody(body: SigningBody, ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  body.signers?.forEach((signer, i) => {
    const email = signer.email.toLowerCase();
    if (seen.has(email)) ctx.addIssue({ code: "custom", path: ["signers", i, "email"], message: "each email may appear only once" });
    seen.add(email);
    if (signer.templateRole !== undefined && body.templateId === undefined) {
      ctx.addIssue({ code: "custom", path: ["signers", i, "templateRole"], message: "needs a templateId" });
    }
  });
  if (!body.signerAuthMethod || !body.signers) return;
  const facts = body.signers.map((signer) => ({
    name: signer.email,
    authMethod: signer.authMethod,
    hasAccessCode: Boolean(signer.accessCode) || signer.keepsAccessCode === true,
    hasPhone: Boolean(signer.phone),
  }));
  for (const gap of signerProofGaps(body.signerAuthMethod, facts)) {
    // A signer with its own method was checked by its own schema.
    if (body.signers[gap.index]!.authMethod) continue;
    ctx.addIssue({ code: "custom", path: ["signers", gap.index, gap.field], message: gap.message });
  }
}

export const CreateSigningSchema = z.strictObject(createSigningFields).superRefine(refineSigningBody).openapi("CreateSigningRequest");

/**
 * A signer row of the manager's package form: the create request's signer, plus, on a draft, the
 * signer's id and whether an access code is already stored (then the code may stay empty: it is
 * write-only, so the form never has it; the save checks the stored one).
 */
const SigningFormSignerSchema = z
  .strictObject({ ...newPackageSignerFields, id: z.uuid().optional(), keepsAccessCode: z.boolean().optional() })
  .superRefine((signer, ctx) => refineSignerAccess({ ...signer, accessCode: signer.accessCode ?? (signer.keepsAccessCode ? "kept" : undefined) }, ctx));

/** The manager's package form (new package and draft): the create request's fields and rules, with `SigningFormSignerSchema` rows. */
export const SigningFormSchema = z
  .strictObject({
    ...createSigningFields,
    signers: z.array(SigningFormSignerSchema).max(50).optional(),
    /** How each attached document of a draft is executed, by document id. */
    documentModes: z.record(z.uuid({ error: "expected a document id" }), ExecutionModeSchema).optional(),
    /** Whether each attached document of a draft is a transferable record, by document id (docs/transferable-records.md). */
    documentTransferable: z.record(z.uuid({ error: "expected a document id" }), z.boolean()).optional(),
    /** A new package from a template: how some of the template's documents are executed, by template document id. */
    templateDocumentModes: z.record(z.uuid({ error: "expected a template document id" }), ExecutionModeSchema).optional(),
    /** How each newly added PDF is executed, in the order the files are posted (one value: every file). */
    fileModes: z.array(ExecutionModeSchema).max(10).optional(),
  })
  .superRefine(refineSigningBody);

export const UpdateSigningSchema = z
  .strictObject({
    title: Title.optional(),
    message: Message.nullable().optional(),
    flowId: z.uuid({ error: "expected a flow id" }).nullable().optional(),
    signerAuthMethod: SignerAuthMethodSchema.optional().openapi({ description: "How signers prove who they are unless a signer sets its own authMethod" }),
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
