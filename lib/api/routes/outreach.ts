import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { createOutreachMessage } from "@/lib/outreach/create-outreach-message";
import { deleteOutreachTemplate } from "@/lib/outreach/delete-outreach-template";
import { listOutreachMessages } from "@/lib/outreach/list-outreach-messages";
import { listOutreachTemplates } from "@/lib/outreach/list-outreach-templates";
import { saveOutreachTemplate } from "@/lib/outreach/save-outreach-template";
import { serializeOutreachMessage } from "@/lib/outreach/serialize-outreach-message";
import type { ApiEnv } from "../context";
import { jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { DocumentIdParamSchema } from "../schemas/documents";
import { OrganizationQuerySchema } from "../schemas/organization-query";
import {
  CreateOutreachMessageSchema,
  OutreachMessageListSchema,
  OutreachMessageSchema,
  OutreachTemplateListSchema,
  OutreachTemplateSchema,
  SaveOutreachTemplateSchema,
  TemplatePurposeParamSchema,
} from "../schemas/outreach";
import { PaginationQuerySchema } from "../schemas/pagination";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

const TAGS = ["Outreach"];

// GET /v1/documents/{id}/outreach – the document's outreach history, newest first.
const listRoute = createRoute({
  method: "get",
  path: "/v1/documents/{id}/outreach",
  tags: TAGS,
  operationId: "listOutreachMessages",
  summary: "List a document's outreach messages",
  request: { params: DocumentIdParamSchema, query: PaginationQuerySchema },
  responses: { 200: jsonResponse(OutreachMessageListSchema, "A page of messages"), ...pickErrors(400, 401, 403, 404) },
});

// POST /v1/documents/{id}/outreach – render a template and queue the email (status queued → sent/failed).
const createMessageRoute = createRoute({
  method: "post",
  path: "/v1/documents/{id}/outreach",
  tags: TAGS,
  operationId: "sendOutreachMessage",
  summary: "Send a message to the document's borrower, a co-borrower or a dealer contact",
  request: {
    params: DocumentIdParamSchema,
    body: jsonBody(CreateOutreachMessageSchema),
  },
  responses: { 201: jsonResponse(OutreachMessageSchema, "The queued message"), ...pickErrors(400, 401, 403, 404) },
});

// GET /v1/documents/outreach/templates – the template in effect for each purpose.
const listTemplatesRoute = createRoute({
  method: "get",
  path: "/v1/documents/outreach/templates",
  tags: TAGS,
  operationId: "listOutreachTemplates",
  summary: "List the organization's outreach templates",
  request: { query: OrganizationQuerySchema },
  responses: { 200: jsonResponse(OutreachTemplateListSchema, "One template per purpose"), ...pickErrors(400, 401, 403, 404) },
});

// PUT /v1/documents/outreach/templates/{purpose} – save the organization's own template.
const saveTemplateRoute = createRoute({
  method: "put",
  path: "/v1/documents/outreach/templates/{purpose}",
  tags: TAGS,
  operationId: "saveOutreachTemplate",
  summary: "Save the organization's template for a purpose",
  request: {
    params: TemplatePurposeParamSchema,
    query: OrganizationQuerySchema,
    body: jsonBody(SaveOutreachTemplateSchema),
  },
  responses: { 200: jsonResponse(OutreachTemplateSchema, "The saved template"), ...pickErrors(400, 401, 403, 404) },
});

// DELETE /v1/documents/outreach/templates/{purpose} – back to the built-in template.
const deleteTemplateRoute = createRoute({
  method: "delete",
  path: "/v1/documents/outreach/templates/{purpose}",
  tags: TAGS,
  operationId: "deleteOutreachTemplate",
  summary: "Remove the organization's template for a purpose",
  request: { params: TemplatePurposeParamSchema, query: OrganizationQuerySchema },
  responses: { 204: { description: "Removed; the built-in applies" }, ...pickErrors(400, 401, 403, 404) },
});

export const outreach = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listTemplatesRoute, async (c) => {
    const data = await listOutreachTemplates(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") });
    return c.json({ data }, 200);
  })
  .openapi(saveTemplateRoute, async (c) => {
    const template = await saveOutreachTemplate(c.get("db"), {
      principal: c.get("principal"),
      ...c.req.valid("query"),
      ...c.req.valid("param"),
      ...c.req.valid("json"),
    });
    return c.json(template, 200);
  })
  .openapi(deleteTemplateRoute, async (c) => {
    await deleteOutreachTemplate(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query"), ...c.req.valid("param") });
    return c.body(null, 204);
  })
  .openapi(listRoute, async (c) => {
    const page = await listOutreachMessages(c.get("db"), { principal: c.get("principal"), documentId: c.req.valid("param").id, ...c.req.valid("query") });
    return c.json(serializePage(page, serializeOutreachMessage), 200);
  })
  .openapi(createMessageRoute, async (c) => {
    const message = await createOutreachMessage(c.get("db"), {
      principal: c.get("principal"),
      documentId: c.req.valid("param").id,
      ...c.req.valid("json"),
    });
    return c.json(serializeOutreachMessage(message), 201);
  });
