import { z } from "@hono/zod-openapi";
import { ATTACHMENT_STATUSES } from "@/db/schema/signer-attachments";
import { MAX_REQUESTS_PER_SIGNER } from "@/lib/attachments/limits";
import { IsoDateTime, orNull, SafeString } from "./common";

/** One attachment asked of a signer (package creation, or later on a draft or sent package). */
export const AttachmentRequestInputSchema = z
  .strictObject({
    name: SafeString.trim().min(1).max(200).openapi({ example: "Driver's license, front and back" }),
    description: orNull(SafeString.trim().max(1000)).optional().openapi({ example: "Both sides, readable" }),
    required: z.boolean().default(true).openapi({ description: "A required attachment must be accepted before the package completes (default true)." }),
  })
  .openapi("AttachmentRequestInput");

export const AttachmentRequestInputListSchema = z.array(AttachmentRequestInputSchema).max(MAX_REQUESTS_PER_SIGNER);

export const AddAttachmentRequestsSchema = z
  .strictObject({ attachments: AttachmentRequestInputListSchema.min(1) })
  .openapi("AddAttachmentRequests");

export const AttachmentFileSchema = z
  .object({
    id: z.uuid(),
    fileName: z.string(),
    sourceType: z.string().openapi({ description: "What the signer sent, read from its bytes: image/jpeg, image/png, image/heic or application/pdf. The kept file is always a PDF." }),
    sizeBytes: z.number().int(),
    sha256: z.string(),
    pageCount: z.number().int(),
    status: z.enum(ATTACHMENT_STATUSES),
    rejectReason: orNull(z.string()),
    reviewedAt: orNull(IsoDateTime),
    reviewedBy: orNull(z.string()),
    createdAt: IsoDateTime,
  })
  .openapi("AttachmentFile");

export const AttachmentRequestSchema = z
  .object({
    id: z.uuid(),
    signerId: z.uuid(),
    signerName: z.string(),
    name: z.string(),
    description: orNull(z.string()),
    required: z.boolean(),
    status: z.enum(["missing", "pending_review", "accepted"]).openapi({ description: "missing: nothing sent, or only rejected files; pending_review: a file awaits the manager; accepted." }),
    files: z.array(AttachmentFileSchema),
  })
  .openapi("AttachmentRequest");

export const AttachmentRequestListSchema = z.object({ data: z.array(AttachmentRequestSchema) }).openapi("AttachmentRequestList");

export const AttachmentReviewSchema = z
  .discriminatedUnion("decision", [
    z.strictObject({ decision: z.literal("accept") }),
    z.strictObject({ decision: z.literal("reject"), reason: SafeString.trim().min(1).max(1000) }),
  ])
  .openapi("AttachmentReview");

export const AttachmentReviewResultSchema = z
  .object({ attachment: AttachmentFileSchema, packageStatus: z.string().openapi({ description: "The package's status after the decision (completed when this was the last thing missing)." }) })
  .openapi("AttachmentReviewResult");

export const AttachmentRequestChangeSchema = z
  .strictObject({ required: z.boolean().openapi({ description: "false: the package no longer waits for this attachment; true: it must be accepted before the package completes." }) })
  .openapi("AttachmentRequestChange");

const packageStatusAfter = z.string().openapi({ description: "The package's status after the change (completed when this was the last thing missing)." });

export const AttachmentRequestChangeResultSchema = z.object({ request: AttachmentRequestSchema, packageStatus: packageStatusAfter }).openapi("AttachmentRequestChangeResult");

export const AttachmentRequestWithdrawResultSchema = z.object({ packageStatus: packageStatusAfter }).openapi("AttachmentRequestWithdrawResult");

const idParam = (name: string) => SafeString.max(100).openapi({ param: { name, in: "path" } });
export const SignerRequestsParamsSchema = z.object({ id: idParam("id"), signerId: idParam("signerId") });
export const AttachmentParamsSchema = z.object({ id: idParam("id"), attachmentId: idParam("attachmentId") });
export const RequestParamsSchema = z.object({ id: idParam("id"), requestId: idParam("requestId") });

/** A direct upload (POST /v1/uploads) named by id, instead of the bytes. */
export const AttachmentUploadRefSchema = z.strictObject({ uploadId: z.uuid({ error: "expected an upload id (from POST /v1/uploads)" }), name: SafeString.trim().max(200).optional() });

export const AttachmentUploadContent = {
  // Plain JSON Schemas: a zod schema in a body's content would make the route validate every body as JSON.
  "application/json": {
    schema: {
      type: "object" as const,
      properties: {
        uploadId: { type: "string" as const, format: "uuid", description: "A verified direct upload (POST /v1/uploads, PUT, complete): a PDF, JPEG or PNG up to 20 MiB" },
        name: { type: "string" as const, maxLength: 200 },
      },
      required: ["uploadId"],
      additionalProperties: false,
    },
  },
  "multipart/form-data": {
    schema: {
      type: "object" as const,
      properties: { file: { type: "string" as const, format: "binary", description: "A photo (JPEG, PNG, HEIC) or a PDF, up to 10 MiB inline" }, name: { type: "string" as const } },
      required: ["file"],
    },
  },
  "image/jpeg": { schema: { type: "string" as const, format: "binary" } },
  "image/png": { schema: { type: "string" as const, format: "binary" } },
  "image/heic": { schema: { type: "string" as const, format: "binary" } },
  "application/pdf": { schema: { type: "string" as const, format: "binary" } },
};
