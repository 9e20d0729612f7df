import { z } from "@hono/zod-openapi";
import { signatureKindEnum } from "@/db/schema/e-signatures";
import { signatureRequestStatusEnum } from "@/db/schema/package-documents";
import { signerRoleEnum, signerStatusEnum } from "@/db/schema/package-signers";
import { signingStatusEnum } from "@/db/schema/signing-packages";
import { SIGNATURE_FONTS } from "@/lib/signature-images/signature-fonts";
import { MAX_SIGNATURE_IMAGE_BYTES, parsePngDataUrl } from "@/lib/signature-images/parse-png-data-url";
import { IsoDateTime, SafeString } from "./common";
import { FieldValuesSchema } from "./fields";
import { pageSchema, PaginationQuerySchema } from "./pagination";
import { DocumentExecutionStatusSchema, ExecutionModeSchema } from "./closings";

const SignerStatus = z.enum(signerStatusEnum.enumValues);
const SignerRole = z.enum(signerRoleEnum.enumValues);
/** A signer never sees a draft. */
const VisibleSigningStatus = z.enum(signingStatusEnum.enumValues).exclude(["draft"]);
const Sha256 = SafeString.regex(/^[0-9a-fA-F]{64}$/, { error: "expected a hex SHA-256 (64 characters)" });

export const SigningIdParamSchema = z.object({
  id: SafeString.max(100).openapi({ param: { name: "id", in: "path" }, example: "01934b7e-8f3a-7c2d-9e4f-1a2b3c4d5e6f" }),
});

export const DocumentParamsSchema = SigningIdParamSchema.extend({
  docId: SafeString.max(100).openapi({ param: { name: "docId", in: "path" } }),
});

export const ListAssignedSigningsQuerySchema = PaginationQuerySchema.extend({
  status: VisibleSigningStatus.optional().openapi({ description: "Only packages in this state (drafts are never listed)" }),
});

const MySignerSummary = z.object({
  signerId: z.string(),
  role: SignerRole,
  routingOrder: z.number().int(),
  status: SignerStatus,
});

export const AssignedSigningSchema = z
  .object({
    id: z.string(),
    organizationId: z.number().int(),
    title: z.string(),
    status: VisibleSigningStatus.or(z.literal("draft")),
    sentAt: IsoDateTime.nullable(),
    completedAt: IsoDateTime.nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
    me: MySignerSummary,
  })
  .openapi("AssignedSigning");

export const AssignedSigningListSchema = pageSchema(AssignedSigningSchema, "AssignedSigningList");

export const AssignedSigningDetailSchema = z
  .object({
    id: z.string(),
    organizationId: z.number().int(),
    title: z.string(),
    message: z.string().nullable(),
    status: VisibleSigningStatus.or(z.literal("draft")),
    sentAt: IsoDateTime.nullable(),
    completedAt: IsoDateTime.nullable(),
    cancelledAt: IsoDateTime.nullable(),
    declinedAt: IsoDateTime.nullable(),
    expiresAt: IsoDateTime.nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
    me: MySignerSummary.extend({
      name: z.string(),
      email: z.string(),
      notifiedAt: IsoDateTime.nullable(),
      viewedAt: IsoDateTime.nullable(),
      signedAt: IsoDateTime.nullable(),
      declinedAt: IsoDateTime.nullable(),
    }),
    documents: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        contentType: z.string(),
        pageCount: z.number().int(),
        sizeBytes: z.number().int(),
        sha256: z.string().openapi({ description: "SHA-256 of the PDF bytes; the e-signature attests to it" }),
        position: z.number().int(),
        executionMode: ExecutionModeSchema.openapi({ description: "Hybrid closings: e-signed here, signed in ink at the table, or only to read" }),
        executionStatus: DocumentExecutionStatusSchema.openapi({
          description: "Where the document stands; a review_only document is pending until a signer acknowledges it (acknowledged)",
        }),
        signatureRequests: z.array(
          z.object({
            id: z.string(),
            required: z.boolean(),
            status: z.enum(signatureRequestStatusEnum.enumValues),
            signedAt: IsoDateTime.nullable(),
            eSignatureId: z.string().nullable(),
          }),
        ),
      }),
    ),
    coSigners: z
      .array(z.object({ id: z.string(), name: z.string(), role: SignerRole, routingOrder: z.number().int(), status: SignerStatus }))
      .openapi({ description: "The other signers of the package, without their contact details" }),
  })
  .openapi("AssignedSigningDetail");

const Consent = z.literal(true, { error: "must be true: explicit consent to sign electronically is required" }).openapi({
  description: "Explicit consent to sign electronically (ESIGN / eIDAS); must be true",
});

const DrawnSignature = z.strictObject({
  kind: z.literal("drawn"),
  imageDataUrl: SafeString
    .max(Math.ceil((MAX_SIGNATURE_IMAGE_BYTES * 4) / 3) + 64, { error: `image exceeds ${MAX_SIGNATURE_IMAGE_BYTES} bytes` })
    .superRefine((value, ctx) => {
      const png = parsePngDataUrl(value);
      if (!png.ok) ctx.addIssue({ code: "custom", message: png.reason });
    })
    .openapi({ description: `A PNG as a data: URL (data:image/png;base64,…), at most ${MAX_SIGNATURE_IMAGE_BYTES} bytes decoded` }),
  consent: Consent,
  documentSha256: Sha256.optional().openapi({ description: "The SHA-256 of the document the signer viewed; 409 when it changed" }),
  fields: FieldValuesSchema.optional(),
});

const TypedSignature = z.strictObject({
  kind: z.literal("typed"),
  text: SafeString.trim().min(1).max(200).openapi({ example: "Sam Signer" }),
  font: z.enum(SIGNATURE_FONTS),
  consent: Consent,
  documentSha256: Sha256.optional().openapi({ description: "The SHA-256 of the document the signer viewed; 409 when it changed" }),
  fields: FieldValuesSchema.optional(),
});

export const RecordESignatureSchema = z
  .discriminatedUnion("kind", [DrawnSignature, TypedSignature], { error: 'kind: expected "drawn" or "typed"' })
  .openapi("RecordESignatureRequest");

export const IdempotencyHeaderSchema = z.object({
  "idempotency-key": SafeString
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, { error: "expected printable ASCII without spaces" })
    .optional()
    .openapi({ description: "Idempotency-Key: repeat the same key to retry safely" }),
});

export const ESignatureSchema = z
  .object({
    id: z.string(),
    signingId: z.string(),
    documentId: z.string(),
    signatureRequestId: z.string(),
    signerId: z.string(),
    authUserId: z.string().nullable(),
    kind: z.enum(signatureKindEnum.enumValues),
    typedText: z.string().nullable(),
    typedFont: z.string().nullable(),
    consentGiven: z.boolean(),
    documentSha256: z.string(),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
    idempotencyKey: z.string().nullable(),
    createdAt: IsoDateTime,
  })
  .openapi("ESignature");

export const ESignatureListSchema = pageSchema(ESignatureSchema, "ESignatureList");

export const DeclineSigningSchema = z
  .strictObject({ reason: SafeString.trim().min(1).max(1000).openapi({ example: "The loan amount is wrong." }) })
  .openapi("DeclineSigningRequest");
