import { z } from "@hono/zod-openapi";
import { IsoDateTime, SafeString } from "./common";

export const PackageDocumentSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    sha256: z.string(),
    pageCount: z.number().int(),
    position: z.number().int(),
    createdAt: IsoDateTime,
  })
  .openapi("DocumentMetadata");

export const PackageDocumentListSchema = z.object({ data: z.array(PackageDocumentSchema) }).openapi("DocumentMetadataList");

/** A document from a direct upload (`POST /v1/uploads`), attached by the upload's id. */
export const AttachUploadSchema = z
  .strictObject({
    uploadId: z.uuid({ error: "expected an upload id (from POST /v1/uploads)" }),
    name: SafeString.trim().min(1).max(200).optional().openapi({ description: "Document name; default the upload's name" }),
  });

/** AttachUploadSchema as plain JSON Schema: a zod schema in a body's content would make the route validate every body as JSON. */
export const AttachUploadJsonSchema = {
  type: "object" as const,
  properties: {
    uploadId: { type: "string" as const, format: "uuid", description: "An upload's id (from POST /v1/uploads)" },
    name: { type: "string" as const, minLength: 1, maxLength: 200, description: "Document name; default the upload's name" },
  },
  required: ["uploadId"],
  additionalProperties: false,
};

/**
 * Request bodies of a document upload: JSON naming a direct upload (any size up to 100 MiB), or the
 * bytes inline for small files (at most 10 MiB): raw PDF, or a multipart form with a `file` field.
 * Parsed by the handler.
 */
export const PdfUploadContent = {
  "application/json": { schema: AttachUploadJsonSchema },
  "application/pdf": { schema: { type: "string" as const, format: "binary" } },
  "multipart/form-data": {
    schema: {
      type: "object" as const,
      properties: { file: { type: "string" as const, format: "binary" }, name: { type: "string" as const } },
      required: ["file"],
    },
  },
};

export const UploadQuerySchema = z.object({
  name: SafeString.trim().min(1).max(200).optional().openapi({ description: "Document name for a raw `application/pdf` upload" }),
});

export const DocumentParamsSchema = z.object({
  id: SafeString.max(100).openapi({ param: { name: "id", in: "path" } }),
  docId: SafeString.max(100).openapi({ param: { name: "docId", in: "path" } }),
});
