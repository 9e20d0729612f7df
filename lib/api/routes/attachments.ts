import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { addSignerAttachment, type AttachmentSource } from "@/lib/attachments/add-signer-attachment";
import { setAttachmentRequestRequired, withdrawAttachmentRequest } from "@/lib/attachments/change-attachment-request";
import { addAttachmentRequests } from "@/lib/attachments/create-attachment-requests";
import { getAttachmentFile, listMyAttachments, listPackageAttachments, serializeAttachmentFile } from "@/lib/attachments/list-attachments";
import { reviewSignerAttachment } from "@/lib/attachments/review-signer-attachment";
import type { ApiEnv } from "../context";
import { readUpload, readUploadRef, type UploadKind } from "../read-upload";
import { errorResponses, jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import {
  AddAttachmentRequestsSchema,
  AttachmentFileSchema,
  AttachmentParamsSchema,
  AttachmentRequestChangeResultSchema,
  AttachmentRequestChangeSchema,
  AttachmentRequestListSchema,
  AttachmentRequestWithdrawResultSchema,
  AttachmentReviewResultSchema,
  AttachmentReviewSchema,
  AttachmentUploadContent,
  AttachmentUploadRefSchema,
  RequestParamsSchema,
  SignerRequestsParamsSchema,
} from "../schemas/attachments";
import { UploadQuerySchema } from "../schemas/package-documents";
import { SigningIdParamSchema } from "../schemas/signings";
import { storedFileResponse } from "../stored-file-response";
import { validationHook } from "../validation";

const MANAGER = "/v1/signing/manager/signings/{id}";
const SIGNER = "/v1/signing/signer/signings/{id}";
const tags = ["Attachments"];
const pdfResponse = { description: "The attachment as kept (a PDF)", content: { "application/pdf": { schema: { type: "string" as const, format: "binary" } } } };
const ATTACHMENT_UPLOAD: UploadKind = { what: "the photo or PDF", mediaTypes: ["image/jpeg", "image/png", "image/heic", "application/pdf"], defaultName: "Attachment" };
const tooLarge = { 413: { ...errorResponses[400], description: "The file exceeds 10 MiB inline or 20 MiB by direct upload" } };

const listRoute = createRoute({
  method: "get",
  path: `${MANAGER}/attachments`,
  tags,
  operationId: "listPackageAttachments",
  summary: "List the attachments asked of a package's signers, and the files they sent",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(AttachmentRequestListSchema, "Every request, per signer, with its files"), ...pickErrors(401, 403, 404) },
});

const addRequestsRoute = createRoute({
  method: "post",
  path: `${MANAGER}/signers/{signerId}/attachment-requests`,
  tags,
  operationId: "requestSignerAttachments",
  summary: "Ask a signer for attachments",
  description:
    "On a draft or sent package. A required attachment must be accepted before the package completes; at most 20 per signer. " +
    "At creation, the same list goes in `signers[].attachments` of POST /v1/signing/manager/signings.",
  request: { params: SignerRequestsParamsSchema, body: jsonBody(AddAttachmentRequestsSchema) },
  responses: { 201: jsonResponse(AttachmentRequestListSchema, "The signer's requests, the new ones included"), ...pickErrors(400, 401, 403, 404, 409) },
});

const changeRequestRoute = createRoute({
  method: "patch",
  path: `${MANAGER}/attachment-requests/{requestId}`,
  tags,
  operationId: "changeAttachmentRequest",
  summary: "Make an attachment request required or optional",
  description:
    "On a draft or open package. `{ \"required\": false }` stops the package waiting for an attachment the signer cannot provide: files already sent stay, " +
    "the signer still sees the request, and the package completes if this was the last thing missing (a file still waiting for review must be reviewed first).",
  request: { params: RequestParamsSchema, body: jsonBody(AttachmentRequestChangeSchema) },
  responses: { 200: jsonResponse(AttachmentRequestChangeResultSchema, "The request and the package's status"), ...pickErrors(400, 401, 403, 404, 409) },
});

const withdrawRequestRoute = createRoute({
  method: "delete",
  path: `${MANAGER}/attachment-requests/{requestId}`,
  tags,
  operationId: "withdrawAttachmentRequest",
  summary: "Withdraw an attachment request nothing was sent for",
  description:
    "On a draft or open package: the signer no longer sees the request and the package no longer waits for it. 409 when the signer already sent a file " +
    "(files stay with the package as evidence; make the request optional instead) or the package is closed.",
  request: { params: RequestParamsSchema },
  responses: { 200: jsonResponse(AttachmentRequestWithdrawResultSchema, "The package's status after the request is withdrawn"), ...pickErrors(401, 403, 404, 409) },
});

const managerFileRoute = createRoute({
  method: "get",
  path: `${MANAGER}/attachments/{attachmentId}/file`,
  tags,
  operationId: "downloadPackageAttachment",
  summary: "Download an attachment a signer sent",
  request: { params: AttachmentParamsSchema },
  responses: { 200: pdfResponse, ...pickErrors(401, 403, 404) },
});

const reviewRoute = createRoute({
  method: "post",
  path: `${MANAGER}/attachments/{attachmentId}/review`,
  tags,
  operationId: "reviewAttachment",
  summary: "Accept or reject an attachment",
  description:
    "`{ \"decision\": \"accept\" }` or `{ \"decision\": \"reject\", \"reason\": \"…\" }` on a file waiting for review. A rejected file's signer is emailed the " +
    "reason and can send another. Accepting the last thing missing completes the package (then it is sealed).",
  request: { params: AttachmentParamsSchema, body: jsonBody(AttachmentReviewSchema) },
  responses: { 200: jsonResponse(AttachmentReviewResultSchema, "The attachment and the package's status"), ...pickErrors(400, 401, 403, 404, 409) },
});

const myListRoute = createRoute({
  method: "get",
  path: `${SIGNER}/attachments`,
  tags,
  operationId: "listMyAttachments",
  summary: "List the attachments asked of me on a package",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(AttachmentRequestListSchema, "My requests and the files I sent"), ...pickErrors(401, 403, 404) },
});

const addFileRoute = createRoute({
  method: "post",
  path: `${SIGNER}/attachments/{requestId}/files`,
  tags,
  operationId: "addMyAttachment",
  summary: "Send a file for an attachment asked of me",
  description:
    "A photo (JPEG, PNG, or HEIC when the server can read it) or a PDF: as the `file` field of a multipart form or a raw body (name in `?name=`) up to 10 MiB, " +
    "or a direct upload (`POST /v1/uploads` with a PDF, JPEG or PNG, PUT, complete) named by id as `application/json` `{ \"uploadId\" }`, up to 20 MiB. " +
    "The type is read from the bytes. A photo is turned upright and stripped of all metadata (location included) and kept as a PDF page; a PDF must open, " +
    "not be encrypted and have at most 50 pages. At most 10 files per request. 409 when the package is closed or the request already accepted.",
  request: { params: RequestParamsSchema, query: UploadQuerySchema, body: { required: true, content: AttachmentUploadContent } },
  responses: { 201: jsonResponse(AttachmentFileSchema, "The file as kept, waiting for review"), ...pickErrors(400, 401, 403, 404, 409), ...tooLarge },
});

const myFileRoute = createRoute({
  method: "get",
  path: `${SIGNER}/attachment-files/{attachmentId}`,
  tags,
  operationId: "downloadMyAttachment",
  summary: "Download a file I sent",
  request: { params: AttachmentParamsSchema },
  responses: { 200: pdfResponse, ...pickErrors(401, 403, 404) },
});

export const attachmentRoutes = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json({ data: await listPackageAttachments(c.get("db"), { principal: c.get("principal"), packageId: id }) }, 200);
  })
  .openapi(addRequestsRoute, async (c) => {
    const { id, signerId } = c.req.valid("param");
    const db = c.get("db");
    const principal = c.get("principal");
    await addAttachmentRequests(db, { principal, packageId: id, signerId, requests: c.req.valid("json").attachments, ipAddress: c.get("ipAddress") });
    const all = await listPackageAttachments(db, { principal, packageId: id });
    return c.json({ data: all.filter((r) => r.signerId === signerId) }, 201);
  })
  .openapi(changeRequestRoute, async (c) => {
    const { id, requestId } = c.req.valid("param");
    const db = c.get("db");
    const principal = c.get("principal");
    const { request, signing } = await setAttachmentRequestRequired(db, { principal, packageId: id, requestId, required: c.req.valid("json").required, ipAddress: c.get("ipAddress") });
    const view = (await listPackageAttachments(db, { principal, packageId: id })).find((r) => r.id === request.id)!;
    return c.json({ request: view, packageStatus: signing.status }, 200);
  })
  .openapi(withdrawRequestRoute, async (c) => {
    const { id, requestId } = c.req.valid("param");
    const { signing } = await withdrawAttachmentRequest(c.get("db"), { principal: c.get("principal"), packageId: id, requestId, ipAddress: c.get("ipAddress") });
    return c.json({ packageStatus: signing.status }, 200);
  })
  .openapi(managerFileRoute, async (c) => {
    const { id, attachmentId } = c.req.valid("param");
    const file = await getAttachmentFile(c.get("db"), { principal: c.get("principal"), packageId: id, attachmentId, as: "manager" });
    return storedFileResponse(file, { request: c.req.raw, disposition: "attachment" });
  })
  .openapi(reviewRoute, async (c) => {
    const { id, attachmentId } = c.req.valid("param");
    const { attachment, signing } = await reviewSignerAttachment(c.get("db"), {
      principal: c.get("principal"),
      packageId: id,
      attachmentId,
      review: c.req.valid("json"),
      ipAddress: c.get("ipAddress"),
    });
    return c.json({ attachment: serializeAttachmentFile(attachment), packageStatus: signing.status }, 200);
  })
  .openapi(myListRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json({ data: await listMyAttachments(c.get("db"), { principal: c.get("principal"), packageId: id }) }, 200);
  })
  .openapi(addFileRoute, async (c) => {
    const { id, requestId } = c.req.valid("param");
    const { name } = c.req.valid("query");
    const ref = await readUploadRef(c, AttachmentUploadRefSchema);
    const file: AttachmentSource = ref ? { uploadId: ref.uploadId, name: ref.name } : await readUpload(c, ATTACHMENT_UPLOAD, name);
    const added = await addSignerAttachment(c.get("db"), { principal: c.get("principal"), packageId: id, requestId, file, ipAddress: c.get("ipAddress") });
    return c.json(serializeAttachmentFile(added), 201);
  })
  .openapi(myFileRoute, async (c) => {
    const { id, attachmentId } = c.req.valid("param");
    const file = await getAttachmentFile(c.get("db"), { principal: c.get("principal"), packageId: id, attachmentId, as: "signer" });
    return storedFileResponse(file, { request: c.req.raw, disposition: "attachment" });
  });
