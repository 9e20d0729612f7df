import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { createFlow } from "@/lib/flows/create-flow";
import { getFlowOrThrow } from "@/lib/flows/get-flow-or-throw";
import { listFlows } from "@/lib/flows/list-flows";
import { serializeFlow } from "@/lib/flows/serialize-flow";
import { updateFlow } from "@/lib/flows/update-flow";
import { requireCapability } from "@/lib/auth/principal";
import { addTemplateDocument } from "@/lib/templates/add-template-document";
import { createTemplate } from "@/lib/templates/create-template";
import { deleteTemplateDocument } from "@/lib/templates/delete-template-document";
import { getDocumentFile } from "@/lib/document-owners/get-document-file";
import { getTemplateDetail } from "@/lib/templates/get-template-detail";
import { listTemplates } from "@/lib/templates/list-templates";
import { serializeTemplate } from "@/lib/templates/serialize-template";
import { setTemplateDocumentExecutionMode } from "@/lib/templates/set-template-document-execution-mode";
import { updateTemplate } from "@/lib/templates/update-template";
import type { ApiEnv } from "../context";
import { storedFileResponse } from "../stored-file-response";
import { readPdfSource } from "../read-upload";
import { errorResponses, jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { DocumentParamsSchema, PdfUploadContent } from "../schemas/package-documents";
import {
  CreateFlowSchema,
  CreateTemplateSchema,
  FlowListSchema,
  FlowSchema,
  ListByOrganizationQuerySchema,
  SetTemplateDocumentModeSchema,
  TemplateDetailSchema,
  TemplateDocumentSchema,
  TemplateListSchema,
  TemplateSchema,
  TemplateUploadQuerySchema,
  UpdateFlowSchema,
  UpdateTemplateSchema,
  UuidParamSchema,
} from "../schemas/templates";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

const TEMPLATES = "/v1/signing/manager/templates";
const FLOWS = "/v1/signing/manager/flows";
const tags = ["Templates and flows"];

// GET /v1/signing/manager/templates – templates of the caller's organizations.
const listTemplatesRoute = createRoute({
  method: "get",
  path: TEMPLATES,
  tags,
  operationId: "listTemplates",
  summary: "List templates",
  request: { query: ListByOrganizationQuerySchema },
  responses: { 200: jsonResponse(TemplateListSchema, "A page of templates"), ...pickErrors(400, 401, 403) },
});
// POST /v1/signing/manager/templates – create a template (roles; documents are uploaded after).
const createTemplateRoute = createRoute({
  method: "post",
  path: TEMPLATES,
  tags,
  operationId: "createTemplate",
  summary: "Create a template",
  request: { body: jsonBody(CreateTemplateSchema) },
  responses: { 201: jsonResponse(TemplateSchema, "The created template"), ...pickErrors(400, 401, 403, 404) },
});
// GET /v1/signing/manager/templates/{id} – a template with its documents' metadata.
const getTemplateRoute = createRoute({
  method: "get",
  path: `${TEMPLATES}/{id}`,
  tags,
  operationId: "readTemplate",
  summary: "Read a template",
  request: { params: UuidParamSchema },
  responses: { 200: jsonResponse(TemplateDetailSchema, "The template"), ...pickErrors(401, 403, 404) },
});
// PATCH /v1/signing/manager/templates/{id} – edit name, description or roles.
const updateTemplateRoute = createRoute({
  method: "patch",
  path: `${TEMPLATES}/{id}`,
  tags,
  operationId: "updateTemplate",
  summary: "Update a template",
  request: { params: UuidParamSchema, body: jsonBody(UpdateTemplateSchema) },
  responses: { 200: jsonResponse(TemplateSchema, "The updated template"), ...pickErrors(400, 401, 403, 404) },
});
// POST /v1/signing/manager/templates/{id}/documents – upload a PDF into a template.
const uploadTemplateDocumentRoute = createRoute({
  method: "post",
  path: `${TEMPLATES}/{id}/documents`,
  tags,
  operationId: "uploadTemplateDocument",
  summary: "Upload a PDF into a template",
  description:
    "JSON `{ uploadId, name? }` naming a direct upload (POST /v1/uploads; up to 100 MiB, 500 pages), or, for small files, a " +
    "raw `application/pdf` body (name in `?name=`) or `multipart/form-data` with a `file` field: at most 10 MiB. " +
    "`?executionMode=` sets how packages from the template execute it (default esign).",
  request: { params: UuidParamSchema, query: TemplateUploadQuerySchema, body: { required: true, content: PdfUploadContent } },
  responses: {
    201: jsonResponse(TemplateDocumentSchema, "The stored document's metadata"),
    ...pickErrors(400, 401, 403, 404),
    413: { ...errorResponses[400], description: "The PDF exceeds its limit (10 MiB inline, 100 MiB as a direct upload)" },
  },
});
// GET /v1/signing/manager/templates/{id}/documents/{docId}/file – the PDF bytes.
const templateDocumentFileRoute = createRoute({
  method: "get",
  path: `${TEMPLATES}/{id}/documents/{docId}/file`,
  tags,
  operationId: "downloadTemplateDocument",
  summary: "Download a template document",
  request: { params: DocumentParamsSchema },
  responses: {
    200: { description: "The PDF", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
    ...pickErrors(401, 403, 404),
  },
});
// PATCH /v1/signing/manager/templates/{id}/documents/{docId} – the execution mode packages from the template start with.
const setTemplateDocumentModeRoute = createRoute({
  method: "patch",
  path: `${TEMPLATES}/{id}/documents/{docId}`,
  tags,
  operationId: "setTemplateDocumentExecution",
  summary: "Set a template document's execution mode",
  description: "Packages created from the template afterwards start with this mode for their copy of the document; packages created earlier keep theirs.",
  request: { params: DocumentParamsSchema, body: jsonBody(SetTemplateDocumentModeSchema) },
  responses: { 200: jsonResponse(TemplateDocumentSchema, "The document with its mode"), ...pickErrors(400, 401, 403, 404) },
});
// DELETE /v1/signing/manager/templates/{id}/documents/{docId} – remove a document from a template.
const deleteTemplateDocumentRoute = createRoute({
  method: "delete",
  path: `${TEMPLATES}/{id}/documents/{docId}`,
  tags,
  operationId: "removeTemplateDocument",
  summary: "Remove a document from a template",
  request: { params: DocumentParamsSchema },
  responses: { 204: { description: "Removed" }, ...pickErrors(401, 403, 404) },
});

// GET /v1/signing/manager/flows – flows of the caller's organizations.
const listFlowsRoute = createRoute({
  method: "get",
  path: FLOWS,
  tags,
  operationId: "listFlows",
  summary: "List flows",
  request: { query: ListByOrganizationQuerySchema },
  responses: { 200: jsonResponse(FlowListSchema, "A page of flows"), ...pickErrors(400, 401, 403) },
});
// POST /v1/signing/manager/flows – create a flow of ordered steps.
const createFlowRoute = createRoute({
  method: "post",
  path: FLOWS,
  tags,
  operationId: "createFlow",
  summary: "Create a flow",
  request: { body: jsonBody(CreateFlowSchema) },
  responses: { 201: jsonResponse(FlowSchema, "The created flow"), ...pickErrors(400, 401, 403, 404) },
});
// GET /v1/signing/manager/flows/{id}
const getFlowRoute = createRoute({
  method: "get",
  path: `${FLOWS}/{id}`,
  tags,
  operationId: "readFlow",
  summary: "Read a flow",
  request: { params: UuidParamSchema },
  responses: { 200: jsonResponse(FlowSchema, "The flow"), ...pickErrors(401, 403, 404) },
});
// PATCH /v1/signing/manager/flows/{id} – rename, replace steps, or make it the default.
const updateFlowRoute = createRoute({
  method: "patch",
  path: `${FLOWS}/{id}`,
  tags,
  operationId: "updateFlow",
  summary: "Update a flow",
  request: { params: UuidParamSchema, body: jsonBody(UpdateFlowSchema) },
  responses: { 200: jsonResponse(FlowSchema, "The updated flow"), ...pickErrors(400, 401, 403, 404) },
});

export const managerTemplates = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listTemplatesRoute, async (c) =>
    c.json(serializePage(await listTemplates(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") }), serializeTemplate), 200),
  )
  .openapi(createTemplateRoute, async (c) => {
    const created = await createTemplate(c.get("db"), { principal: c.get("principal"), ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeTemplate(created), 201);
  })
  .openapi(getTemplateRoute, async (c) =>
    c.json(await getTemplateDetail(c.get("db"), { principal: c.get("principal"), templateId: c.req.valid("param").id }), 200),
  )
  .openapi(updateTemplateRoute, async (c) => {
    const templateId = c.req.valid("param").id;
    const updated = await updateTemplate(c.get("db"), { principal: c.get("principal"), templateId, ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeTemplate(updated), 200);
  })
  .openapi(uploadTemplateDocumentRoute, async (c) => {
    const { name, executionMode } = c.req.valid("query");
    const upload = await readPdfSource(c, name);
    const document = await addTemplateDocument(c.get("db"), {
      principal: c.get("principal"),
      templateId: c.req.valid("param").id,
      ...upload,
      executionMode,
      ipAddress: c.get("ipAddress"),
    });
    return c.json(document, 201);
  })
  .openapi(templateDocumentFileRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const file = await getDocumentFile(c.get("db"), { principal: c.get("principal"), owner: "template", ownerId: id, documentId: docId });
    return storedFileResponse(file, { disposition: "inline" });
  })
  .openapi(setTemplateDocumentModeRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const document = await setTemplateDocumentExecutionMode(c.get("db"), {
      principal: c.get("principal"),
      templateId: id,
      documentId: docId,
      executionMode: c.req.valid("json").executionMode,
      ipAddress: c.get("ipAddress"),
    });
    return c.json(document, 200);
  })
  .openapi(deleteTemplateDocumentRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    await deleteTemplateDocument(c.get("db"), { principal: c.get("principal"), templateId: id, documentId: docId, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  })
  .openapi(listFlowsRoute, async (c) => c.json(serializePage(await listFlows(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") }), serializeFlow), 200))
  .openapi(createFlowRoute, async (c) => {
    const created = await createFlow(c.get("db"), { principal: c.get("principal"), ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeFlow(created), 201);
  })
  .openapi(getFlowRoute, async (c) => {
    const principal = c.get("principal");
    requireCapability(principal, "flows:read", "You do not have permission to read flows.");
    const flow = await getFlowOrThrow(c.get("db"), { principal, flowId: c.req.valid("param").id, capability: "flows:read" });
    return c.json(serializeFlow(flow), 200);
  })
  .openapi(updateFlowRoute, async (c) => {
    const updated = await updateFlow(c.get("db"), {
      principal: c.get("principal"),
      flowId: c.req.valid("param").id,
      ...c.req.valid("json"),
      ipAddress: c.get("ipAddress"),
    });
    return c.json(serializeFlow(updated), 200);
  });
