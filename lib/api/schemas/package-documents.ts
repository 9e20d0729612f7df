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

/** Request bodies of an upload: raw PDF bytes, or a multipart form with a `file` field. Parsed by the handler. */
export const PdfUploadContent = {
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
