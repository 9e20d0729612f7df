import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { addPackageDocument } from "@/lib/signings/add-package-document";
import { deletePackageDocument } from "@/lib/signings/delete-package-document";
import { getDocumentFile } from "@/lib/document-owners/get-document-file";
import { listPackageDocuments } from "@/lib/signings/list-package-documents";
import { serializeDocumentMetadata } from "@/lib/pdf/serialize-document-metadata";
import type { ApiEnv } from "../context";
import { storedFileResponse } from "../stored-file-response";
import { readPdfSource } from "../read-upload";
import { errorResponses, jsonResponse, pickErrors } from "../schemas/common";
import {
  DocumentParamsSchema,
  PackageDocumentListSchema,
  PackageDocumentSchema,
  PdfUploadContent,
  UploadQuerySchema,
} from "../schemas/package-documents";
import { SigningIdParamSchema } from "../schemas/signings";
import { validationHook } from "../validation";

const PATH = "/v1/signing/manager/signings/{id}/documents";
const tags = ["Manager signings"];
const tooLarge = { 413: { ...errorResponses[400], description: "The PDF exceeds its limit (10 MiB inline, 100 MiB as a direct upload)" } };

// GET /v1/signing/manager/signings/{id}/documents – metadata of the package's documents.
const listRoute = createRoute({
  method: "get",
  path: PATH,
  tags,
  operationId: "listPackageDocuments",
  summary: "List a package's documents",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(PackageDocumentListSchema, "Document metadata"), ...pickErrors(401, 403, 404) },
});

// POST /v1/signing/manager/signings/{id}/documents – upload a PDF into a draft.
const uploadRoute = createRoute({
  method: "post",
  path: PATH,
  tags,
  operationId: "uploadPackageDocument",
  summary: "Upload a PDF into a draft",
  description: "JSON `{ uploadId, name? }` naming a direct upload (POST /v1/uploads; up to 100 MiB, 500 pages), or, for small files, a " +
    "raw `application/pdf` body (name in `?name=`) or `multipart/form-data` with a `file` field: at most 10 MiB; must be a readable PDF.",
  request: { params: SigningIdParamSchema, query: UploadQuerySchema, body: { required: true, content: PdfUploadContent } },
  responses: { 201: jsonResponse(PackageDocumentSchema, "The stored document's metadata"), ...pickErrors(400, 401, 403, 404, 409), ...tooLarge },
});

// GET /v1/signing/manager/signings/{id}/documents/{docId}/file – the PDF bytes.
const fileRoute = createRoute({
  method: "get",
  path: `${PATH}/{docId}/file`,
  tags,
  operationId: "downloadPackageDocument",
  summary: "Download a document",
  request: { params: DocumentParamsSchema },
  responses: {
    200: { description: "The PDF", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
    ...pickErrors(401, 403, 404),
  },
});

// DELETE /v1/signing/manager/signings/{id}/documents/{docId} – detach a document from a draft.
const deleteRoute = createRoute({
  method: "delete",
  path: `${PATH}/{docId}`,
  tags,
  operationId: "removePackageDocument",
  summary: "Remove a document from a draft",
  request: { params: DocumentParamsSchema },
  responses: { 204: { description: "Removed" }, ...pickErrors(401, 403, 404, 409) },
});

export const managerSigningDocuments = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listRoute, async (c) => {
    const { id } = c.req.valid("param");
    const rows = await listPackageDocuments(c.get("db"), { principal: c.get("principal"), packageId: id });
    return c.json({ data: rows.map(serializeDocumentMetadata) }, 200);
  })
  .openapi(uploadRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { name } = c.req.valid("query");
    const source = await readPdfSource(c, name);
    const document = await addPackageDocument(c.get("db"), { principal: c.get("principal"), packageId: id, ...source, ipAddress: c.get("ipAddress") });
    return c.json(document, 201);
  })
  .openapi(fileRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const file = await getDocumentFile(c.get("db"), { principal: c.get("principal"), owner: "package", ownerId: id, documentId: docId });
    return storedFileResponse(file, { disposition: "inline" });
  })
  .openapi(deleteRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    await deletePackageDocument(c.get("db"), { principal: c.get("principal"), packageId: id, documentId: docId, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  });
