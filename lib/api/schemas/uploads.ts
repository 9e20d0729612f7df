import { z } from "@hono/zod-openapi";
import { MAX_UPLOADED_PDF_BYTES } from "@/lib/pdf/validate-pdf-upload";
import { IsoDateTime, SafeString } from "./common";

export const CreateUploadSchema = z
  .strictObject({
    name: SafeString.trim().min(1).max(200).openapi({ example: "Loan package.pdf" }),
    size: z
      .number({ error: "expected the file's size in bytes" })
      .int({ error: "expected the file's size in bytes" })
      .positive({ error: "expected the file's size in bytes (at least 1)" })
      .openapi({ description: `The file's exact size in bytes; at most ${MAX_UPLOADED_PDF_BYTES} (100 MiB) for a PDF.`, example: 23_456_789 }),
    contentType: SafeString.trim().min(1).max(100).openapi({ description: "The file's media type: `application/pdf`.", example: "application/pdf" }),
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, { error: "expected the file's SHA-256 as 64 hexadecimal digits" })
      .openapi({ description: "The file's SHA-256, hexadecimal." }),
  })
  .openapi("CreateUploadRequest");

export const UploadSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    sha256: z.string(),
    status: z.enum(["pending", "verified"]).openapi({ description: "`verified` once the server has checked what arrived" }),
    pageCount: z.number().int().nullable().openapi({ description: "Known once verified" }),
    expiresAt: IsoDateTime.openapi({ description: "Attach the upload before this time; afterwards it is refused and deleted" }),
    createdAt: IsoDateTime,
  })
  .openapi("Upload");

export const UploadTargetSchema = z
  .object({
    method: z.literal("PUT"),
    url: z.url().openapi({ description: "Where to PUT the file's bytes (S3's presigned URL, or this service's own endpoint)" }),
    headers: z.record(z.string(), z.string()).openapi({ description: "Headers the PUT must carry, exactly as given" }),
    expiresAt: IsoDateTime.openapi({ description: "The URL (or token) is refused after this time" }),
  })
  .openapi("UploadTarget");

export const CreatedUploadSchema = UploadSchema.extend({ put: UploadTargetSchema }).openapi("CreatedUpload");

export const UploadIdParamSchema = z.object({
  id: SafeString.max(100).openapi({ param: { name: "id", in: "path" } }),
});
