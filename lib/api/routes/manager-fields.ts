import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { listFields } from "@/lib/fields/list-fields";
import { replaceFields } from "@/lib/fields/replace-fields";
import { serializeField } from "@/lib/fields/serialize-field";
import type { ApiEnv } from "../context";
import { jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import {
  PackageFieldListSchema,
  ReplacePackageFieldsSchema,
  ReplaceTemplateFieldsSchema,
  TemplateFieldListSchema,
} from "../schemas/fields";
import { DocumentParamsSchema } from "../schemas/package-documents";
import { validationHook } from "../validation";

const SIGNING_FIELDS = "/v1/signing/manager/signings/{id}/documents/{docId}/fields";
const TEMPLATE_FIELDS = "/v1/signing/manager/templates/{id}/documents/{docId}/fields";
const coordinates =
  "Coordinates are PDF user space in points: origin at the bottom-left corner of the page's CropBox, y upwards, independent of zoom and rotation.";

// GET /v1/signing/manager/signings/{id}/documents/{docId}/fields – the fields placed on a package document.
const listSigningFieldsRoute = createRoute({
  method: "get",
  path: SIGNING_FIELDS,
  tags: ["Manager signings"],
  operationId: "listPackageDocumentFields",
  summary: "List a package document's fields",
  description: `Every signer's fields on the document, in reading order. ${coordinates}`,
  request: { params: DocumentParamsSchema },
  responses: { 200: jsonResponse(PackageFieldListSchema, "The fields"), ...pickErrors(401, 403, 404) },
});

// PUT /v1/signing/manager/signings/{id}/documents/{docId}/fields – replace them (draft only).
const replaceSigningFieldsRoute = createRoute({
  method: "put",
  path: SIGNING_FIELDS,
  tags: ["Manager signings"],
  operationId: "replacePackageDocumentFields",
  summary: "Replace a package document's fields",
  description:
    `Replaces every field of the document; \`{ "fields": [] }\` removes them. Each field belongs to a signer of the package and lies inside a page. ` +
    `409 once the package is sent. ${coordinates}`,
  request: { params: DocumentParamsSchema, body: jsonBody(ReplacePackageFieldsSchema) },
  responses: { 200: jsonResponse(PackageFieldListSchema, "The stored fields"), ...pickErrors(400, 401, 403, 404, 409) },
});

// GET /v1/signing/manager/templates/{id}/documents/{docId}/fields – the fields placed on a template document.
const listTemplateFieldsRoute = createRoute({
  method: "get",
  path: TEMPLATE_FIELDS,
  tags: ["Templates and flows"],
  operationId: "listTemplateDocumentFields",
  summary: "List a template document's fields",
  description: `Fields per template role, in reading order. ${coordinates}`,
  request: { params: DocumentParamsSchema },
  responses: { 200: jsonResponse(TemplateFieldListSchema, "The fields"), ...pickErrors(401, 403, 404) },
});

// PUT /v1/signing/manager/templates/{id}/documents/{docId}/fields – replace them.
const replaceTemplateFieldsRoute = createRoute({
  method: "put",
  path: TEMPLATE_FIELDS,
  tags: ["Templates and flows"],
  operationId: "replaceTemplateDocumentFields",
  summary: "Replace a template document's fields",
  description:
    "Replaces every field of the template document, each for one of the template's roles (`roleKey`). A package created from the template " +
    `gets a copy of them for the signers given those roles. ${coordinates}`,
  request: { params: DocumentParamsSchema, body: jsonBody(ReplaceTemplateFieldsSchema) },
  responses: { 200: jsonResponse(TemplateFieldListSchema, "The stored fields"), ...pickErrors(400, 401, 403, 404) },
});

export const managerFields = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listSigningFieldsRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const rows = await listFields(c.get("db"), { principal: c.get("principal"), owner: "package", ownerId: id, documentId: docId });
    return c.json({ data: rows.map(serializeField.package) }, 200);
  })
  .openapi(replaceSigningFieldsRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const { fields } = c.req.valid("json");
    const rows = await replaceFields(c.get("db"), { principal: c.get("principal"), owner: "package", ownerId: id, documentId: docId, fields, ipAddress: c.get("ipAddress") });
    return c.json({ data: rows.map(serializeField.package) }, 200);
  })
  .openapi(listTemplateFieldsRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const rows = await listFields(c.get("db"), { principal: c.get("principal"), owner: "template", ownerId: id, documentId: docId });
    return c.json({ data: rows.map(serializeField.template) }, 200);
  })
  .openapi(replaceTemplateFieldsRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const { fields } = c.req.valid("json");
    const rows = await replaceFields(c.get("db"), { principal: c.get("principal"), owner: "template", ownerId: id, documentId: docId, fields, ipAddress: c.get("ipAddress") });
    return c.json({ data: rows.map(serializeField.template) }, 200);
  });
