import { z } from "@hono/zod-openapi";
import { chattelDocumentStatusEnum, chattelDocumentTypeEnum } from "@/db/schema";
import { FILE_STORAGE_KINDS } from "@/db/schema/stored-file-columns";
import { IsoDateTime, SafeString } from "./common";
import { PaginationQuerySchema } from "./pagination";

// Chattel documents and their files (/v1/documents).

const IntId = (what: string) =>
  z
    .number({ error: `expected an integer ${what} id` })
    .int({ error: `expected an integer ${what} id` })
    .positive()
    .max(2_147_483_647);
const QueryIntId = z.coerce.number().int().positive().max(2_147_483_647);
const Text = (max: number) => SafeString.trim().min(1).max(max);
const NullableText = (max: number) => SafeString.trim().max(max).nullable().optional();

export const DocumentTypeSchema = z.enum(chattelDocumentTypeEnum.enumValues).openapi("DocumentType");
export const DocumentStatusSchema = z.enum(chattelDocumentStatusEnum.enumValues).openapi("DocumentStatus");

export const DocumentContactSchema = z
  .strictObject({ name: SafeString.trim().min(1).max(200).nullable().default(null), email: z.email().max(320) })
  .openapi("DocumentContact");

export const DocumentIdParamSchema = z.object({
  id: z.uuid().openapi({ param: { name: "id", in: "path" }, example: "01936d3c-8f2a-7b4e-9c1d-2e3f4a5b6c7d" }),
});
export const DocumentFileParamSchema = DocumentIdParamSchema.extend({
  fileId: z.uuid().openapi({ param: { name: "fileId", in: "path" } }),
});

export const DocumentSchema = z
  .object({
    id: z.string(),
    organizationId: z.number().int(),
    companyId: z.number().int().nullable(),
    locationId: z.number().int().nullable(),
    signingPackageId: z.string().nullable(),
    type: DocumentTypeSchema,
    status: DocumentStatusSchema,
    title: z.string(),
    borrowerName: z.string().nullable(),
    borrowerEmail: z.string().nullable(),
    coBorrowers: z.array(z.object({ name: z.string().nullable(), email: z.string() })),
    dealerContacts: z.array(z.object({ name: z.string().nullable(), email: z.string() })),
    collateralMake: z.string().nullable(),
    collateralModel: z.string().nullable(),
    collateralYear: z.number().int().nullable(),
    collateralSerial: z.string().nullable(),
    notes: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Document");

export const DocumentListSchema = z
  .object({
    data: z.array(DocumentSchema),
    nextCursor: z.string().nullable(),
    cap: z.number().int().optional().openapi({ description: "Present when the admin read cap applies" }),
  })
  .openapi("DocumentList");

const editableFields = {
  type: DocumentTypeSchema,
  status: DocumentStatusSchema,
  title: Text(200).openapi({ example: "Title — 2019 Clayton 16x76, serial CLA123" }),
  signingPackageId: z.uuid().nullable().optional(),
  borrowerName: NullableText(200),
  borrowerEmail: z.email().max(320).nullable().optional(),
  coBorrowers: z.array(DocumentContactSchema).max(10).optional(),
  dealerContacts: z.array(DocumentContactSchema).max(10).optional(),
  collateralMake: NullableText(100),
  collateralModel: NullableText(100),
  collateralYear: z.number().int().min(1900).max(2100).nullable().optional(),
  collateralSerial: NullableText(100),
  notes: NullableText(10_000),
};

export const CreateDocumentSchema = z
  .strictObject({
    ...editableFields,
    status: DocumentStatusSchema.optional(),
    organizationId: IntId("organization").optional(),
    companyId: IntId("company").optional(),
    locationId: IntId("location").optional(),
  })
  .openapi("CreateDocumentRequest");

export const UpdateDocumentSchema = z
  .strictObject({
    ...editableFields,
    type: DocumentTypeSchema.optional(),
    status: DocumentStatusSchema.optional(),
    title: Text(200).optional(),
    companyId: IntId("company").nullable().optional(),
    locationId: IntId("location").nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { error: "expected at least one field to change" })
  .openapi("UpdateDocumentRequest");

export const ListDocumentsQuerySchema = PaginationQuerySchema.extend({
  type: DocumentTypeSchema.optional(),
  status: DocumentStatusSchema.optional(),
  organizationId: QueryIntId.optional(),
  companyId: QueryIntId.optional(),
  locationId: QueryIntId.optional(),
  q: SafeString.trim().min(1).max(200).optional().openapi({ description: "Search in title, borrower name/email and collateral serial" }),
});

export const DocumentFileSchema = z
  .object({
    id: z.string(),
    documentId: z.string(),
    fileName: z.string(),
    contentType: z.string().openapi({ example: "application/pdf", description: "application/pdf, image/png or image/jpeg" }),
    sizeBytes: z.number().int(),
    sha256: z.string().openapi({ description: "Hex SHA-256 of the bytes" }),
    storage: z.enum(FILE_STORAGE_KINDS),
    uploadedByUserId: z.string().nullable(),
    createdAt: IsoDateTime,
  })
  .openapi("DocumentFile");

export const DocumentFileListSchema = z
  .object({ data: z.array(DocumentFileSchema), nextCursor: z.string().nullable() })
  .openapi("DocumentFileList");

export const UploadDocumentFileSchema = z
  .object({
    file: z
      .custom<File>((value) => value instanceof File, { error: "expected a file part named file" })
      .openapi({ type: "string", format: "binary", description: "PDF, PNG or JPEG; the type is read from the bytes" }),
  })
  .openapi("UploadDocumentFileRequest");

/** The small-file form of a chattel file upload, as a plain JSON Schema (the route reads the form itself). */
export const UploadDocumentFileFormSchema = {
  type: "object" as const,
  properties: { file: { type: "string" as const, format: "binary", description: "PDF, PNG or JPEG; the type is read from the bytes" } },
  required: ["file"],
};
