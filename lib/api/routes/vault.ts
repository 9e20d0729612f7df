import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { storedFileResponse } from "@/lib/api/stored-file-response";
import {
  acceptTransfer,
  convertToPaper,
  declineTransfer,
  offerTransfer,
  pledgeRecord,
  releasePledge,
  withdrawTransfer,
} from "@/lib/transferable-records/change-control";
import { getAuthoritativeCopy, getVaultRecord, listVaultRecords, type VaultRecordView } from "@/lib/transferable-records/get-vault-record";
import { setDocumentTransferable } from "@/lib/transferable-records/set-document-transferable";
import { setTemplateDocumentTransferable } from "@/lib/transferable-records/set-template-document-transferable";
import type { ApiEnv } from "../context";
import { jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { DocumentParamsSchema } from "../schemas/package-documents";
import {
  ControlNoteSchema,
  DocumentTransferableResultSchema,
  DocumentTransferableSchema,
  OrganizationTargetSchema,
  RecordIdParamSchema,
  VaultRecordListSchema,
  VaultRecordSchema,
} from "../schemas/transferable-records";
import { validationHook } from "../validation";

const TAGS = ["eVault"];
const BASE = "/v1/vault/records";

function serialize(record: VaultRecordView) {
  return {
    ...record,
    establishedAt: record.establishedAt.toISOString(),
    paperOutAt: record.paperOutAt?.toISOString() ?? null,
    history: record.history.map((h) => ({ ...h, at: h.at.toISOString() })),
  };
}

// PUT /v1/signing/manager/signings/{id}/documents/{docId}/transferable – mark a draft's document as a transferable record.
const markRoute = createRoute({
  method: "put",
  path: "/v1/signing/manager/signings/{id}/documents/{docId}/transferable",
  tags: ["Manager signings"],
  operationId: "setDocumentTransferable",
  summary: "Mark a draft's document as a transferable record (or not)",
  description:
    "Once the package completes and is sealed, the document's sealed PDF becomes the single authoritative copy under your organization's control " +
    "(see the eVault). Drafts only (409 after sending).",
  request: { params: DocumentParamsSchema, body: jsonBody(DocumentTransferableSchema) },
  responses: { 200: jsonResponse(DocumentTransferableResultSchema, "The document's flag"), ...pickErrors(400, 401, 403, 404, 409) },
});

// PUT /v1/signing/manager/templates/{id}/documents/{docId}/transferable – packages from the template start with the document marked.
const markTemplateRoute = createRoute({
  method: "put",
  path: "/v1/signing/manager/templates/{id}/documents/{docId}/transferable",
  tags: ["Templates and flows"],
  operationId: "setTemplateDocumentTransferable",
  summary: "Mark a template's document as a transferable record (or not)",
  description: "Every package created from the template afterwards (package form, /v1, bulk CSV send) starts with its copy of the document marked.",
  request: { params: DocumentParamsSchema, body: jsonBody(DocumentTransferableSchema) },
  responses: { 200: jsonResponse(DocumentTransferableResultSchema, "The document's flag"), ...pickErrors(400, 401, 403, 404) },
});

const listRoute = createRoute({
  method: "get",
  path: BASE,
  tags: TAGS,
  operationId: "listVaultRecords",
  summary: "Records your organizations control, are offered, or hold a pledge on",
  description: "For organization admins. Newest first; `history` is empty here (read one record for it).",
  responses: { 200: jsonResponse(VaultRecordListSchema, "The records"), ...pickErrors(401) },
});

const getRoute = createRoute({
  method: "get",
  path: `${BASE}/{recordId}`,
  tags: TAGS,
  operationId: "getVaultRecord",
  summary: "A record and its control history",
  request: { params: RecordIdParamSchema },
  responses: { 200: jsonResponse(VaultRecordSchema, "The record"), ...pickErrors(401, 404) },
});

const copyRoute = createRoute({
  method: "get",
  path: `${BASE}/{recordId}/authoritative-copy`,
  tags: TAGS,
  operationId: "downloadAuthoritativeCopy",
  summary: "Download the authoritative copy (controller only)",
  description: "The sealed PDF itself, unmarked; every other download of the document is marked COPY. 404 unless your organization controls the record; 409 after conversion to paper.",
  request: { params: RecordIdParamSchema },
  responses: {
    200: { description: "The authoritative copy (`ETag` is its SHA-256)", content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } } },
    302: { description: "With S3 storage: a presigned GET of the file, valid for five minutes" },
    ...pickErrors(401, 404, 409),
  },
});

const action = (path: string, operationId: string, summary: string, description: string, body?: typeof OrganizationTargetSchema | typeof ControlNoteSchema) =>
  createRoute({
    method: "post",
    path: `${BASE}/{recordId}/${path}`,
    tags: TAGS,
    operationId,
    summary,
    description,
    request: { params: RecordIdParamSchema, ...(body ? { body: { required: false, content: { "application/json": { schema: body } } } } : {}) },
    responses: { 200: jsonResponse(VaultRecordSchema, "The record after the change"), ...pickErrors(400, 401, 404, 409) },
  });

const offerRoute = createRoute({
  method: "post",
  path: `${BASE}/{recordId}/transfer`,
  tags: TAGS,
  operationId: "offerTransfer",
  summary: "Offer control to another organization",
  description: "Controller only. Control passes when the other organization accepts. One offer at a time: 409 while one is pending or the record is pledged.",
  request: { params: RecordIdParamSchema, body: jsonBody(OrganizationTargetSchema) },
  responses: { 200: jsonResponse(VaultRecordSchema, "The record with the pending transfer"), ...pickErrors(400, 401, 404, 409) },
});
const pledgeRoute = createRoute({
  method: "post",
  path: `${BASE}/{recordId}/pledge`,
  tags: TAGS,
  operationId: "pledgeRecord",
  summary: "Pledge the record to a secured party",
  description: "Controller only. Until the secured party releases it, the record cannot be transferred or converted to paper.",
  request: { params: RecordIdParamSchema, body: jsonBody(OrganizationTargetSchema) },
  responses: { 200: jsonResponse(VaultRecordSchema, "The pledged record"), ...pickErrors(400, 401, 404, 409) },
});
const acceptRoute = action("transfer/accept", "acceptTransfer", "Accept control offered to your organization", "From now on only your organization can transfer the record or download its authoritative copy.", ControlNoteSchema);
const declineRoute = action("transfer/decline", "declineTransfer", "Decline control offered to your organization", "Control stays with the offering organization.", ControlNoteSchema);
const withdrawRoute = action("transfer/withdraw", "withdrawTransfer", "Withdraw your pending offer", "Controller only.", ControlNoteSchema);
const releaseRoute = action("release", "releasePledge", "Release your pledge", "The secured party only.", ControlNoteSchema);
const paperRoute = action(
  "paper-out",
  "convertToPaper",
  "Convert the record to paper",
  "Controller only, when not pledged and no transfer is pending. The electronic authoritative copy is retired for good; every rendering is then a copy.",
  ControlNoteSchema,
);

async function noteOf(c: { req: { json: () => Promise<unknown>; header: (name: string) => string | undefined } }): Promise<string | undefined> {
  if (!c.req.header("content-type")?.includes("application/json")) return undefined;
  const parsed = ControlNoteSchema.safeParse(await c.req.json().catch(() => ({})));
  return parsed.success ? parsed.data.note : undefined;
}

/** The eVault (`/v1/vault/records/*`) and marking a draft's document transferable. */
export const vault = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(markRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const { transferable } = c.req.valid("json");
    const result = await setDocumentTransferable(c.get("db"), { principal: c.get("principal"), packageId: id, documentId: docId, transferable, ipAddress: c.get("ipAddress") });
    return c.json(result, 200);
  })
  .openapi(markTemplateRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const { transferable } = c.req.valid("json");
    const result = await setTemplateDocumentTransferable(c.get("db"), { principal: c.get("principal"), templateId: id, documentId: docId, transferable, ipAddress: c.get("ipAddress") });
    return c.json(result, 200);
  })
  .openapi(listRoute, async (c) => c.json({ data: (await listVaultRecords(c.get("db"), { principal: c.get("principal") })).map(serialize) }, 200))
  .openapi(getRoute, async (c) => c.json(serialize(await getVaultRecord(c.get("db"), { principal: c.get("principal"), recordId: c.req.valid("param").recordId })), 200))
  .openapi(copyRoute, async (c) => storedFileResponse(await getAuthoritativeCopy(c.get("db"), { principal: c.get("principal"), recordId: c.req.valid("param").recordId })))
  .openapi(offerRoute, async (c) => {
    const { organization, organizationId, note } = c.req.valid("json");
    const base = { principal: c.get("principal"), recordId: c.req.valid("param").recordId, ipAddress: c.get("ipAddress"), note };
    return c.json(serialize(await offerTransfer(c.get("db"), { ...base, toOrganization: organization, toOrganizationId: organizationId })), 200);
  })
  .openapi(pledgeRoute, async (c) => {
    const { organization, organizationId, note } = c.req.valid("json");
    const base = { principal: c.get("principal"), recordId: c.req.valid("param").recordId, ipAddress: c.get("ipAddress"), note };
    return c.json(serialize(await pledgeRecord(c.get("db"), { ...base, toOrganization: organization, toOrganizationId: organizationId })), 200);
  })
  .openapi(acceptRoute, async (c) => c.json(serialize(await acceptTransfer(c.get("db"), { principal: c.get("principal"), recordId: c.req.valid("param").recordId, ipAddress: c.get("ipAddress"), note: await noteOf(c) })), 200))
  .openapi(declineRoute, async (c) => c.json(serialize(await declineTransfer(c.get("db"), { principal: c.get("principal"), recordId: c.req.valid("param").recordId, ipAddress: c.get("ipAddress"), note: await noteOf(c) })), 200))
  .openapi(withdrawRoute, async (c) => c.json(serialize(await withdrawTransfer(c.get("db"), { principal: c.get("principal"), recordId: c.req.valid("param").recordId, ipAddress: c.get("ipAddress"), note: await noteOf(c) })), 200))
  .openapi(releaseRoute, async (c) => c.json(serialize(await releasePledge(c.get("db"), { principal: c.get("principal"), recordId: c.req.valid("param").recordId, ipAddress: c.get("ipAddress"), note: await noteOf(c) })), 200))
  .openapi(paperRoute, async (c) => c.json(serialize(await convertToPaper(c.get("db"), { principal: c.get("principal"), recordId: c.req.valid("param").recordId, ipAddress: c.get("ipAddress"), note: await noteOf(c) })), 200));
