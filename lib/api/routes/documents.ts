import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { createChattelDocument } from "@/lib/chattel-documents/create-chattel-document";
import { deleteChattelDocument } from "@/lib/chattel-documents/delete-chattel-document";
import { deleteDocumentFile } from "@/lib/chattel-documents/delete-document-file";
import { getChattelDocument } from "@/lib/chattel-documents/get-chattel-document";
import { getDocumentFileDownload } from "@/lib/chattel-documents/get-document-file-content";
import { listChattelDocuments } from "@/lib/chattel-documents/list-chattel-documents";
import { listDocumentFiles } from "@/lib/chattel-documents/list-document-files";
import { serializeChattelDocument } from "@/lib/chattel-documents/serialize-chattel-document";
import { serializeDocumentFile } from "@/lib/chattel-documents/serialize-document-file";
import { updateChattelDocument } from "@/lib/chattel-documents/update-chattel-document";
import { uploadDocumentFile } from "@/lib/chattel-documents/upload-document-file";
import { CHATTEL_FILE_TYPES } from "@/lib/chattel-documents/sniff-file-type";
import { readUploadedFile } from "@/lib/uploads/read-uploaded-file";
import { CHATTEL_FILE_UPLOAD, readUpload, readUploadRef } from "../read-upload";
import { AttachUploadJsonSchema, AttachUploadSchema } from "../schemas/package-documents";
import type { ApiEnv } from "../context";
import { storedFileResponse } from "../stored-file-response";
import { errorResponses, jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import {
  CreateDocumentSchema,
  DocumentFileListSchema,
  DocumentFileParamSchema,
  DocumentFileSchema,
  DocumentIdParamSchema,
  DocumentListSchema,
  DocumentSchema,
  ListDocumentsQuerySchema,
  UpdateDocumentSchema,
  UploadDocumentFileFormSchema,
} from "../schemas/documents";
import { PaginationQuerySchema } from "../schemas/pagination";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

const TAGS = ["Documents"];
const tooLarge = { 413: { ...errorResponses[400], description: "The file exceeds the 10 MiB upload limit" } };

// GET /v1/documents – chattel documents in the caller's scope, filtered and searched.
const listRoute = createRoute({
  method: "get",
  path: "/v1/documents",
  tags: TAGS,
  operationId: "listChattelDocuments",
  summary: "List chattel documents",
  request: { query: ListDocumentsQuerySchema },
  responses: { 200: jsonResponse(DocumentListSchema, "A page of documents, newest first"), ...pickErrors(400, 401, 403) },
});

// POST /v1/documents – create a chattel document at an organization, company or location.
const createDocumentRoute = createRoute({
  method: "post",
  path: "/v1/documents",
  tags: TAGS,
  operationId: "createChattelDocument",
  summary: "Create a chattel document",
  request: { body: jsonBody(CreateDocumentSchema) },
  responses: { 201: jsonResponse(DocumentSchema, "The created document"), ...pickErrors(400, 401, 403, 404) },
});

// GET /v1/documents/{id} – one document.
const getRoute = createRoute({
  method: "get",
  path: "/v1/documents/{id}",
  tags: TAGS,
  operationId: "readChattelDocument",
  summary: "Read a chattel document",
  request: { params: DocumentIdParamSchema },
  responses: { 200: jsonResponse(DocumentSchema, "The document"), ...pickErrors(400, 401, 403, 404) },
});

// PATCH /v1/documents/{id} – change fields, status or place within the organization.
const updateRoute = createRoute({
  method: "patch",
  path: "/v1/documents/{id}",
  tags: TAGS,
  operationId: "updateChattelDocument",
  summary: "Update a chattel document",
  request: {
    params: DocumentIdParamSchema,
    body: jsonBody(UpdateDocumentSchema),
  },
  responses: { 200: jsonResponse(DocumentSchema, "The updated document"), ...pickErrors(400, 401, 403, 404) },
});

// DELETE /v1/documents/{id} – delete with files, comments and outreach history.
const deleteRoute = createRoute({
  method: "delete",
  path: "/v1/documents/{id}",
  tags: TAGS,
  operationId: "deleteChattelDocument",
  summary: "Delete a chattel document",
  request: { params: DocumentIdParamSchema },
  responses: { 204: { description: "Deleted" }, ...pickErrors(400, 401, 403, 404) },
});

// POST /v1/documents/{id}/files – attach a PDF, PNG or JPEG: a direct upload by id (JSON), or multipart/form-data, part `file`.
const uploadRoute = createRoute({
  method: "post",
  path: "/v1/documents/{id}/files",
  tags: TAGS,
  operationId: "uploadChattelDocumentFile",
  summary: "Upload a file to a chattel document",
  request: {
    params: DocumentIdParamSchema,
    body: {
      required: true,
      description:
        "`application/json` naming a direct upload (`{ \"uploadId\": …, \"name\"?: … }`, from `POST /v1/uploads`: the bytes go straight to storage, " +
        "so no request to this API carries them), or, for small files, a multipart form with the file as its `file` part. Either way at most 10 MiB.",
      // Plain JSON Schemas: a zod schema here would make the route validate every body as a form.
      content: { "application/json": { schema: AttachUploadJsonSchema }, "multipart/form-data": { schema: UploadDocumentFileFormSchema } },
    },
  },
  responses: { 201: jsonResponse(DocumentFileSchema, "The stored file's metadata"), ...pickErrors(400, 401, 403, 404, 409, 503), ...tooLarge },
});

// GET /v1/documents/{id}/files – the document's files (metadata).
const listFilesRoute = createRoute({
  method: "get",
  path: "/v1/documents/{id}/files",
  tags: TAGS,
  operationId: "listChattelDocumentFiles",
  summary: "List a chattel document's files",
  request: { params: DocumentIdParamSchema, query: PaginationQuerySchema },
  responses: { 200: jsonResponse(DocumentFileListSchema, "A page of files, oldest first"), ...pickErrors(400, 401, 403, 404) },
});

const binary = { schema: { type: "string" as const, format: "binary" } };

// GET /v1/documents/{id}/files/{fileId} – download the bytes.
const downloadRoute = createRoute({
  method: "get",
  path: "/v1/documents/{id}/files/{fileId}",
  tags: TAGS,
  operationId: "downloadChattelDocumentFile",
  summary: "Download a chattel document file",
  request: { params: DocumentFileParamSchema },
  responses: {
    200: { description: "The file, streamed from storage (`ETag` is its SHA-256)", content: { "application/pdf": binary, "image/png": binary, "image/jpeg": binary } },
    302: {
      description:
        "With S3 storage configured and the file in the bucket: `Location` is a presigned GET of it, valid for five minutes, that answers with the same " +
        "`Content-Type` and `Content-Disposition`",
    },
    ...pickErrors(400, 401, 403, 404, 503),
  },
});

// DELETE /v1/documents/{id}/files/{fileId} – delete one file.
const deleteFileRoute = createRoute({
  method: "delete",
  path: "/v1/documents/{id}/files/{fileId}",
  tags: TAGS,
  operationId: "deleteChattelDocumentFile",
  summary: "Delete a chattel document file",
  request: { params: DocumentFileParamSchema },
  responses: { 204: { description: "Deleted" }, ...pickErrors(400, 401, 403, 404) },
});

export const documents = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    const page = await listChattelDocuments(c.get("db"), { principal: c.get("principal"), ...query });
    return c.json(serializePage(page, serializeChattelDocument), 200);
  })
  .openapi(createDocumentRoute, async (c) => {
    const { organizationId, companyId, locationId, ...fields } = c.req.valid("json");
    const created = await createChattelDocument(c.get("db"), {
      principal: c.get("principal"),
      organizationId,
      companyId,
      locationId,
      fields,
      ipAddress: c.get("ipAddress"),
    });
    return c.json(serializeChattelDocument(created), 201);
  })
  .openapi(getRoute, async (c) => {
    const document = await getChattelDocument(c.get("db"), { principal: c.get("principal"), documentId: c.req.valid("param").id });
    return c.json(serializeChattelDocument(document), 200);
  })
  .openapi(updateRoute, async (c) => {
    const { companyId, locationId, ...fields } = c.req.valid("json");
    const updated = await updateChattelDocument(c.get("db"), {
      principal: c.get("principal"),
      documentId: c.req.valid("param").id,
      companyId,
      locationId,
      fields,
      ipAddress: c.get("ipAddress"),
    });
    return c.json(serializeChattelDocument(updated), 200);
  })
  .openapi(deleteRoute, async (c) => {
    await deleteChattelDocument(c.get("db"), { principal: c.get("principal"), documentId: c.req.valid("param").id, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  })
  .openapi(uploadRoute, async (c) => {
    const db = c.get("db");
    const principal = c.get("principal");
    const ref = await readUploadRef(c, AttachUploadSchema);
    const file = ref
      ? await readUploadedFile(db, { principal, uploadId: ref.uploadId, accept: CHATTEL_FILE_TYPES })
      : await readUpload(c, CHATTEL_FILE_UPLOAD);
    const stored = await uploadDocumentFile(db, {
      principal,
      documentId: c.req.valid("param").id,
      fileName: ref?.name ?? file.name,
      bytes: file.bytes,
      ipAddress: c.get("ipAddress"),
    });
    return c.json(serializeDocumentFile(stored), 201);
  })
  .openapi(listFilesRoute, async (c) => {
    const page = await listDocumentFiles(c.get("db"), {
      principal: c.get("principal"),
      documentId: c.req.valid("param").id,
      ...c.req.valid("query"),
    });
    return c.json(serializePage(page, serializeDocumentFile), 200);
  })
  .openapi(downloadRoute, async (c) => {
    const { id, fileId } = c.req.valid("param");
    return storedFileResponse(await getDocumentFileDownload(c.get("db"), { principal: c.get("principal"), documentId: id, fileId }));
  })
  .openapi(deleteFileRoute, async (c) => {
    const { id, fileId } = c.req.valid("param");
    await deleteDocumentFile(c.get("db"), { principal: c.get("principal"), documentId: id, fileId, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  });
