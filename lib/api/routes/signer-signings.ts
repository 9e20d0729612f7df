import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { listMyDocumentFields } from "@/lib/fields/list-my-document-fields";
import { serializeField } from "@/lib/fields/serialize-field";
import { listMyESignatures } from "@/lib/esignatures/list-my-esignatures";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { acknowledgeDocument } from "@/lib/closings/acknowledge-document";
import { serializeESignature } from "@/lib/esignatures/serialize-esignature";
import { declineSigning } from "@/lib/signings/decline-signing";
import { getAssignedDocumentFile } from "@/lib/signings/get-assigned-document-file";
import { getAssignedSigning } from "@/lib/signings/get-assigned-signing";
import { listAssignedSignings } from "@/lib/signings/list-assigned-signings";
import { serializeAssignedSigning } from "@/lib/signings/serialize-assigned-signing";
import { storedFileResponse } from "../stored-file-response";
import type { ApiEnv } from "../context";
import { jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { PackageFieldListSchema } from "../schemas/fields";
import {
  AssignedSigningDetailSchema,
  AssignedSigningListSchema,
  DeclineSigningSchema,
  DocumentParamsSchema,
  ESignatureListSchema,
  ESignatureSchema,
  IdempotencyHeaderSchema,
  ListAssignedSigningsQuerySchema,
  RecordESignatureSchema,
  SigningIdParamSchema,
} from "../schemas/signer";
import { PaginationQuerySchema } from "../schemas/pagination";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

const BASE = "/v1/signing/signer/signings";
const tags = ["Signer"];

// GET /v1/signing/signer/signings – the packages assigned to the caller.
const listRoute = createRoute({
  method: "get",
  path: BASE,
  tags,
  operationId: "listMySignings",
  summary: "List the signing packages assigned to me",
  request: { query: ListAssignedSigningsQuerySchema },
  responses: { 200: jsonResponse(AssignedSigningListSchema, "A page of assigned packages"), ...pickErrors(400, 401, 403) },
});

// GET /v1/signing/signer/signings/{id} – one assigned package; the first open marks me viewed.
const getRoute = createRoute({
  method: "get",
  path: `${BASE}/{id}`,
  tags,
  operationId: "getMySigning",
  summary: "Read an assigned package: documents, co-signers, my status",
  description: "Opening a sent or in-progress package moves the caller from pending/notified to viewed (audited).",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(AssignedSigningDetailSchema, "The package as its signer sees it"), ...pickErrors(401, 403, 404) },
});

// GET /v1/signing/signer/signings/{id}/documents/{docId}/file – the PDF bytes.
const fileRoute = createRoute({
  method: "get",
  path: `${BASE}/{id}/documents/{docId}/file`,
  tags,
  operationId: "downloadMyDocument",
  summary: "Download a document of an assigned package",
  request: { params: DocumentParamsSchema },
  responses: {
    200: {
      description: "The PDF; `ETag` is its SHA-256",
      content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
    },
    304: { description: "Not modified (If-None-Match matched the ETag)" },
    ...pickErrors(401, 403, 404),
  },
});

// POST /v1/signing/signer/signings/{id}/documents/{docId}/esignatures – record my e-signature.
const recordRoute = createRoute({
  method: "post",
  path: `${BASE}/{id}/documents/{docId}/esignatures`,
  tags,
  operationId: "createESignature",
  summary: "Record my e-signature on a document",
  description:
    "Idempotent: repeating the request (same signature request, or the same Idempotency-Key) returns the existing record with 200 " +
    "and creates nothing. 409 when the package is not open for signing, an earlier routing group has not signed, or the document " +
    "changed (documentSha256), or a required field of the caller on this document is not filled (the message lists them). " +
    "`fields` carries the values of the caller's text, checkbox and initials fields; date_signed and full_name are set by the service.",
  request: {
    params: DocumentParamsSchema,
    headers: IdempotencyHeaderSchema,
    body: jsonBody(RecordESignatureSchema),
  },
  responses: {
    201: jsonResponse(ESignatureSchema, "The e-signature was recorded"),
    200: jsonResponse(ESignatureSchema, "The e-signature already existed (retry); nothing was created"),
    ...pickErrors(400, 401, 403, 404, 409),
  },
});

// GET /v1/signing/signer/signings/{id}/documents/{docId}/fields – my fields on a document.
const fieldsRoute = createRoute({
  method: "get",
  path: `${BASE}/{id}/documents/{docId}/fields`,
  tags,
  operationId: "listMyDocumentFields",
  summary: "List my fields on a document",
  description: "The caller's own fields, in reading order (page, top to bottom, left to right); other signers' fields are not listed.",
  request: { params: DocumentParamsSchema },
  responses: { 200: jsonResponse(PackageFieldListSchema, "My fields on the document"), ...pickErrors(401, 403, 404) },
});

// POST /v1/signing/signer/signings/{id}/decline – decline the package.
const declineRoute = createRoute({
  method: "post",
  path: `${BASE}/{id}/decline`,
  tags,
  operationId: "declineMySigning",
  summary: "Decline an assigned package",
  request: { params: SigningIdParamSchema, body: jsonBody(DeclineSigningSchema) },
  responses: { 200: jsonResponse(AssignedSigningDetailSchema, "The declined package"), ...pickErrors(400, 401, 403, 404, 409) },
});

// POST /v1/signing/signer/signings/{id}/documents/{docId}/acknowledge – "I have read it" for a review-only document.
const acknowledgeRoute = createRoute({
  method: "post",
  path: `${BASE}/{id}/documents/{docId}/acknowledge`,
  tags,
  operationId: "acknowledgeMyDocument",
  summary: "Acknowledge a review-only document",
  description:
    "Confirms receipt of a document whose executionMode is review_only (no signature): its executionStatus becomes acknowledged, " +
    "audited with the signer; the package completes if that was its last open document. Acknowledging again changes nothing and " +
    "answers the same. 409 for a document that is signed rather than read, or a package no longer open. No body.",
  request: { params: DocumentParamsSchema },
  responses: { 200: jsonResponse(AssignedSigningDetailSchema, "The package as its signer sees it, with the document acknowledged"), ...pickErrors(401, 403, 404, 409) },
});

// GET /v1/signing/signer/esignatures – the e-signatures I recorded.
const listESignaturesRoute = createRoute({
  method: "get",
  path: "/v1/signing/signer/esignatures",
  tags,
  operationId: "listMyESignatures",
  summary: "List my e-signature records",
  request: { query: PaginationQuerySchema },
  responses: { 200: jsonResponse(ESignatureListSchema, "A page of my e-signatures"), ...pickErrors(400, 401, 403) },
});

export const signerSignings = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    const page = await listAssignedSignings(c.get("db"), { principal: c.get("principal"), ...query });
    return c.json(serializePage(page, serializeAssignedSigning), 200);
  })
  .openapi(getRoute, async (c) => {
    const view = await getAssignedSigning(c.get("db"), {
      principal: c.get("principal"),
      packageId: c.req.valid("param").id,
      ipAddress: c.get("ipAddress"),
    });
    return c.json(view, 200);
  })
  .openapi(fileRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const file = await getAssignedDocumentFile(c.get("db"), { principal: c.get("principal"), packageId: id, documentId: docId });
    return storedFileResponse(file, { request: c.req.raw, disposition: "inline", cache: "revalidate" });
  })
  .openapi(recordRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const body = c.req.valid("json");
    const { eSignature, created } = await recordESignature(c.get("db"), {
      principal: c.get("principal"),
      packageId: id,
      documentId: docId,
      signature: body.kind === "drawn" ? { kind: "drawn", imageDataUrl: body.imageDataUrl } : { kind: "typed", text: body.text, font: body.font },
      consent: body.consent,
      documentSha256: body.documentSha256,
      fields: body.fields,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      ipAddress: c.get("ipAddress"),
      userAgent: c.req.header("user-agent")?.slice(0, 512) ?? null,
    });
    return c.json(serializeESignature(eSignature), created ? 201 : 200);
  })
  .openapi(fieldsRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const rows = await listMyDocumentFields(c.get("db"), { principal: c.get("principal"), packageId: id, documentId: docId });
    return c.json({ data: rows.map(serializeField.package) }, 200);
  })
  .openapi(acknowledgeRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    await acknowledgeDocument(c.get("db"), { principal: c.get("principal"), packageId: id, documentId: docId, ipAddress: c.get("ipAddress") });
    const view = await getAssignedSigning(c.get("db"), { principal: c.get("principal"), packageId: id, ipAddress: c.get("ipAddress") });
    return c.json(view, 200);
  })
  .openapi(declineRoute, async (c) => {
    const view = await declineSigning(c.get("db"), {
      principal: c.get("principal"),
      packageId: c.req.valid("param").id,
      reason: c.req.valid("json").reason,
      ipAddress: c.get("ipAddress"),
    });
    return c.json(view, 200);
  })
  .openapi(listESignaturesRoute, async (c) => {
    const page = await listMyESignatures(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") });
    return c.json(serializePage(page, serializeESignature), 200);
  });
