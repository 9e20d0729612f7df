import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { PackageDocument } from "@/db/schema";
import { getClosingDetail, serializeClosing, setDocumentExecutionMode, updateClosingAppointment } from "@/lib/closings/closing-detail";
import { convertPackageToInk } from "@/lib/closings/convert-to-ink";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { reviewDocumentScan } from "@/lib/closings/review-document-scan";
import {
  acceptScanback,
  assignScanbackPage,
  discardScanbackPage,
  getScanbackPageImage,
  getScanbackReport,
  getScanbackScan,
  SCAN_UPLOAD_TYPES,
  uploadScanback,
  type ScanbackReport,
  type ScanbackScanStatus,
} from "@/lib/closings/scanback";
import type { ScanUpload } from "@/lib/closings/scan-pages";
import { BadRequest } from "@/lib/errors";
import { readUploadedFiles } from "@/lib/uploads/read-uploaded-file";
import { getAgentLinkStatus, type AgentLinkStatus } from "@/lib/settlement-agent/get-agent-link-status";
import { issueAgentLink } from "@/lib/settlement-agent/issue-agent-link";
import { revokeAgentLink } from "@/lib/settlement-agent/revoke-agent-link";
import type { ApiEnv } from "../context";
import { readUploadRef } from "../read-upload";
import { storedFileResponse } from "../stored-file-response";
import {
  ClosingSchema,
  ConvertToInkResultSchema,
  ExecutionModeResultSchema,
  ScanbackAcceptResultSchema,
  ScanbackAcceptSchema,
  ScanbackAssignSchema,
  ScanbackPageParamsSchema,
  ScanbackReportSchema,
  ScanbackScanParamsSchema,
  ScanbackScanResultSchema,
  ScanbackUploadResultSchema,
  ScanReviewSchema,
  ScanbackUploadRefsSchema,
  ScanUploadContent,
  SetExecutionModeSchema,
  SettlementAgentLinkRequestSchema,
  SettlementAgentLinkResultSchema,
  UpdateClosingSchema,
} from "../schemas/closings";
import { errorResponses, jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { DocumentParamsSchema, UploadQuerySchema } from "../schemas/package-documents";
import { SigningIdParamSchema } from "../schemas/signings";
import { validationHook } from "../validation";

const PATH = "/v1/signing/manager/signings/{id}";
const tags = ["Hybrid closings"];
const tooLarge = { 413: { ...errorResponses[400], description: "The upload exceeds 10 MiB, 100 files or 200 pages" } };

const getClosingRoute = createRoute({
  method: "get",
  path: `${PATH}/closing`,
  tags,
  operationId: "getClosing",
  summary: "Read a package's closing",
  description: "The appointment, when e-signing opens, each document's execution mode and state with its scan, and the summary line.",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(ClosingSchema, "The closing"), ...pickErrors(401, 403, 404) },
});

const updateClosingRoute = createRoute({
  method: "patch",
  path: `${PATH}/closing`,
  tags,
  operationId: "setClosingAppointment",
  summary: "Set the closing appointment",
  description: "On a draft or an open package. A key left out is unchanged; `null` clears it. 409 once the package is closed.",
  request: { params: SigningIdParamSchema, body: jsonBody(UpdateClosingSchema) },
  responses: { 200: jsonResponse(ClosingSchema, "The closing"), ...pickErrors(400, 401, 403, 404, 409) },
});

const setModeRoute = createRoute({
  method: "patch",
  path: `${PATH}/documents/{docId}/execution`,
  tags,
  operationId: "setPackageDocumentExecution",
  summary: "Set how a draft's document is executed",
  description: "Only on a draft (409 once sent; then only convert-to-ink changes modes).",
  request: { params: DocumentParamsSchema, body: jsonBody(SetExecutionModeSchema) },
  responses: { 200: jsonResponse(ExecutionModeResultSchema, "The document's mode and state"), ...pickErrors(400, 401, 403, 404, 409) },
});

const packetRoute = createRoute({
  method: "get",
  path: `${PATH}/table-packet`,
  tags,
  operationId: "downloadTablePacket",
  summary: "Download the table packet",
  description: "A cover sheet and every page of every ink document stamped with its QR code. 409 when no document is signed in ink.",
  request: { params: SigningIdParamSchema },
  responses: {
    200: { description: "The packet PDF", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
    ...pickErrors(401, 403, 404, 409),
  },
});

const uploadRoute = createRoute({
  method: "post",
  path: `${PATH}/scanbacks`,
  tags,
  operationId: "uploadScanbacks",
  summary: "Upload scanned ink pages",
  description:
    "PDFs and JPEG/PNG images uploaded straight to storage (`POST /v1/uploads`) and named by id (`application/json` `{ \"uploadIds\": [...] }`: " +
    "the bytes never pass through this request), or, for small files, as repeated `files` fields of a multipart form, or one raw " +
    "`application/pdf`, `image/jpeg` or `image/png` body (name in `?name=`). Pages may come in any order and turned. Nothing is attached yet: the answer is the package's report of open pages. " +
    "At most 10 MiB, 100 files and 200 pages per upload. The files are checked and stored at once (a bad file is refused and nothing is kept). " +
    "A scan of at most 10 pages is read within the request: 201, `scan.status` `done`, with the report. A larger one is read in the background, " +
    "10 pages at a time, each chunk resuming where a stopped one left off: 202 with `scan.status` `queued` and `Location` (also `scan.statusUrl`): " +
    "GET it for the pages read so far and, once `done`, the report. A PDF page that is one full-page JPEG (a scanner's output) is kept as it is; any other page is " +
    "rendered at 150 dpi, and a page that takes more than 20 s or too much memory refuses its file (400, or the scan `failed` with that reason when read in the background). 503 when the server's PDF renderer cannot " +
    "be loaded and a page needs rendering.",
  request: { params: SigningIdParamSchema, query: UploadQuerySchema, body: { required: true, content: ScanUploadContent } },
  responses: {
    201: jsonResponse(ScanbackUploadResultSchema, "A scan of at most 10 pages, read: its pages are in the package's report"),
    202: {
      ...jsonResponse(ScanbackUploadResultSchema, "A larger scan, stored and being read in the background: follow `Location` (`scan.statusUrl`)"),
      headers: { Location: { description: "The scan's status URL", schema: { type: "string" } } },
    },
    ...pickErrors(400, 401, 403, 404, 409, 503),
    ...tooLarge,
  },
});

const scanStatusRoute = createRoute({
  method: "get",
  path: `${PATH}/scanbacks/scans/{scanId}`,
  tags,
  operationId: "getScanbackScan",
  summary: "Read how far a scan upload is",
  description: "Pages read so far out of the scan's total, `done` or `failed` (with the reason), and the package's report.",
  request: { params: ScanbackScanParamsSchema },
  responses: { 200: jsonResponse(ScanbackScanResultSchema, "The scan and the package's report"), ...pickErrors(401, 403, 404) },
});

const reportRoute = createRoute({
  method: "get",
  path: `${PATH}/scanbacks`,
  tags,
  operationId: "getScanbackReport",
  summary: "Read the scanback report",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(ScanbackReportSchema, "Open pages and each ink document's pages found, missing and duplicated"), ...pickErrors(401, 403, 404) },
});

const acceptRoute = createRoute({
  method: "post",
  path: `${PATH}/scanbacks/accept`,
  tags,
  operationId: "acceptScanbacks",
  summary: "Attach the scanned pages to their documents",
  description: "Every ready document (or the listed ones) gets its pages as its scan and awaits review. 409 for a listed document that is not ready, or when none is.",
  request: { params: SigningIdParamSchema, body: { required: false, content: { "application/json": { schema: ScanbackAcceptSchema } } } },
  responses: { 200: jsonResponse(ScanbackAcceptResultSchema, "The attached documents and the report left"), ...pickErrors(400, 401, 403, 404, 409) },
});

const assignRoute = createRoute({
  method: "put",
  path: `${PATH}/scanbacks/pages/{pageId}`,
  tags,
  operationId: "assignScanbackPage",
  summary: "Assign a scanned page by hand",
  description: "Places an unreadable page as a page of an ink document. 409 for a page carrying another package's code.",
  request: { params: ScanbackPageParamsSchema, body: jsonBody(ScanbackAssignSchema) },
  responses: { 200: jsonResponse(ScanbackReportSchema, "The report"), ...pickErrors(400, 401, 403, 404, 409) },
});

const discardRoute = createRoute({
  method: "delete",
  path: `${PATH}/scanbacks/pages/{pageId}`,
  tags,
  operationId: "discardScanbackPage",
  summary: "Discard a scanned page",
  request: { params: ScanbackPageParamsSchema },
  responses: { 200: jsonResponse(ScanbackReportSchema, "The report"), ...pickErrors(401, 403, 404) },
});

const pageImageRoute = createRoute({
  method: "get",
  path: `${PATH}/scanbacks/pages/{pageId}/image`,
  tags,
  operationId: "getScanbackPageImage",
  summary: "A scanned page's image",
  request: { params: ScanbackPageParamsSchema },
  responses: {
    200: { description: "The page image", content: { "image/jpeg": { schema: { type: "string", format: "binary" } }, "image/png": { schema: { type: "string", format: "binary" } } } },
    ...pickErrors(401, 403, 404),
  },
});

const reviewRoute = createRoute({
  method: "post",
  path: `${PATH}/documents/{docId}/scan-review`,
  tags,
  operationId: "reviewDocumentScan",
  summary: "Accept or reject a document's scan",
  description: "Rejecting needs a reason and asks for a new scan. Accepting the last open document completes the package.",
  request: { params: DocumentParamsSchema, body: jsonBody(ScanReviewSchema) },
  responses: { 200: jsonResponse(ExecutionModeResultSchema, "The document's state"), ...pickErrors(400, 401, 403, 404, 409) },
});

const convertRoute = createRoute({
  method: "post",
  path: `${PATH}/convert-to-ink`,
  tags,
  operationId: "convertToInk",
  summary: "Convert the remaining e-sign documents to ink",
  description: "Every `esign` document not yet e-signed becomes `wet_sign`; the next table packet holds it.",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(ConvertToInkResultSchema, "The converted documents"), ...pickErrors(401, 403, 404, 409) },
});

const getAgentLinkRoute = createRoute({
  method: "get",
  path: `${PATH}/settlement-agent-link`,
  tags,
  operationId: "getSettlementAgentLink",
  summary: "Read the settlement agent link",
  description: "The package's latest settlement agent link (`null` when none was issued): to whom, its state, when it was opened and when it expires. Never the token.",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(SettlementAgentLinkResultSchema, "The link"), ...pickErrors(401, 403, 404) },
});

const issueAgentLinkRoute = createRoute({
  method: "post",
  path: `${PATH}/settlement-agent-link`,
  tags,
  operationId: "sendSettlementAgentLink",
  summary: "Email a one-time link to the settlement agent",
  description:
    "Emails the agent (under the lender's brand) a one-time link that opens this package's closing only: the appointment, the borrowers' names, " +
    "the ink documents, the table packet, the scan upload and its report. Any older link of the package, and its session, stops working. " +
    "409 when the package is not open or has no document signed in ink.",
  request: { params: SigningIdParamSchema, body: jsonBody(SettlementAgentLinkRequestSchema) },
  responses: { 201: jsonResponse(SettlementAgentLinkResultSchema, "The new link"), ...pickErrors(400, 401, 403, 404, 409) },
});

const revokeAgentLinkRoute = createRoute({
  method: "delete",
  path: `${PATH}/settlement-agent-link`,
  tags,
  operationId: "revokeSettlementAgentLink",
  summary: "Revoke the settlement agent link",
  description: "The link and the session opened from it stop working at once. 409 when there is no live link.",
  request: { params: SigningIdParamSchema },
  responses: { 204: { description: "Revoked" }, ...pickErrors(401, 403, 404, 409) },
});

function serializeAgentLink(link: AgentLinkStatus | null) {
  if (!link) return { link: null };
  return {
    link: {
      ...link,
      issuedAt: link.issuedAt.toISOString(),
      expiresAt: link.expiresAt.toISOString(),
      openedAt: link.openedAt?.toISOString() ?? null,
      revokedAt: link.revokedAt?.toISOString() ?? null,
    },
  };
}

const execution = (d: PackageDocument) => ({ id: d.id, name: d.name, executionMode: d.executionMode, executionStatus: d.executionStatus });

export function scanStatusUrl(scan: Pick<ScanbackScanStatus, "id" | "packageId">) {
  return `/v1/signing/manager/signings/${scan.packageId}/scanbacks/scans/${scan.id}`;
}

export function serializeScanbackScan(scan: ScanbackScanStatus) {
  return {
    id: scan.id,
    uploadId: scan.uploadId,
    status: scan.status,
    totalPages: scan.totalPages,
    processedPages: scan.processedPages,
    error: scan.error,
    createdAt: scan.createdAt.toISOString(),
    finishedAt: scan.finishedAt?.toISOString() ?? null,
    statusUrl: scanStatusUrl(scan),
  };
}

export function serializeScanbackReport(report: ScanbackReport) {
  return { ...report, pages: report.pages.map((p) => ({ ...p, uploadedAt: p.uploadedAt.toISOString() })) };
}

const FORM_ERROR = "Name scans uploaded with POST /v1/uploads as application/json { \"uploadIds\": [...] }, or upload them as `files` fields of a multipart/form-data form, or one file as the body with Content-Type application/pdf, image/jpeg or image/png.";

async function readScanUploads(c: Context, nameFromQuery?: string): Promise<ScanUpload[]> {
  const refs = await readUploadRef(c, ScanbackUploadRefsSchema);
  if (refs) return readUploadedFiles(c.get("db"), { principal: c.get("principal"), uploadIds: refs.uploadIds, accept: SCAN_UPLOAD_TYPES });
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType === "application/pdf" || mediaType === "image/jpeg" || mediaType === "image/png") {
    return [{ bytes: new Uint8Array(await c.req.arrayBuffer()), name: nameFromQuery ?? "scan" }];
  }
  if (mediaType === "multipart/form-data") {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw BadRequest(`The multipart form could not be read. ${FORM_ERROR}`);
    }
    const raw = form.files ?? form.file;
    const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((f): f is File => f instanceof File);
    if (list.length === 0) throw BadRequest(`Missing the \`files\` field. ${FORM_ERROR}`);
    return Promise.all(list.map(async (f) => ({ name: f.name || "scan", bytes: new Uint8Array(await f.arrayBuffer()) })));
  }
  throw BadRequest(FORM_ERROR);
}

export const managerClosings = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(getClosingRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(serializeClosing(await getClosingDetail(c.get("db"), { principal: c.get("principal"), packageId: id })), 200);
  })
  .openapi(updateClosingRoute, async (c) => {
    const { id } = c.req.valid("param");
    const principal = c.get("principal");
    await updateClosingAppointment(c.get("db"), { principal, packageId: id, appointment: c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeClosing(await getClosingDetail(c.get("db"), { principal, packageId: id })), 200);
  })
  .openapi(setModeRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const { executionMode } = c.req.valid("json");
    const document = await setDocumentExecutionMode(c.get("db"), { principal: c.get("principal"), packageId: id, documentId: docId, executionMode, ipAddress: c.get("ipAddress") });
    return c.json(execution(document), 200);
  })
  .openapi(packetRoute, async (c) => {
    const { id } = c.req.valid("param");
    const packet = await getTablePacket(c.get("db"), { principal: c.get("principal"), packageId: id });
    return c.body(packet.content as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${packet.filename}"`,
      "Cache-Control": "private, no-store",
    });
  })
  .openapi(uploadRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { name } = c.req.valid("query");
    const files = await readScanUploads(c, name);
    const result = await uploadScanback(c.get("db"), { principal: c.get("principal"), packageId: id, files, ipAddress: c.get("ipAddress") });
    const body = { uploadId: result.uploadId, pageCount: result.pageCount, scan: serializeScanbackScan(result.scan), report: serializeScanbackReport(result.report) };
    if (result.scan.status === "done") return c.json(body, 201);
    return c.json(body, 202, { Location: body.scan.statusUrl });
  })
  .openapi(scanStatusRoute, async (c) => {
    const { id, scanId } = c.req.valid("param");
    const result = await getScanbackScan(c.get("db"), { principal: c.get("principal"), packageId: id, scanId });
    return c.json({ scan: serializeScanbackScan(result.scan), report: serializeScanbackReport(result.report) }, 200);
  })
  .openapi(reportRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(serializeScanbackReport(await getScanbackReport(c.get("db"), { principal: c.get("principal"), packageId: id })), 200);
  })
  .openapi(acceptRoute, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const result = await acceptScanback(c.get("db"), { principal: c.get("principal"), packageId: id, accept: body ?? {}, ipAddress: c.get("ipAddress") });
    return c.json({ attached: result.attached.map(execution), report: serializeScanbackReport(result.report) }, 200);
  })
  .openapi(assignRoute, async (c) => {
    const { id, pageId } = c.req.valid("param");
    const report = await assignScanbackPage(c.get("db"), { principal: c.get("principal"), packageId: id, pageId, assignment: c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeScanbackReport(report), 200);
  })
  .openapi(discardRoute, async (c) => {
    const { id, pageId } = c.req.valid("param");
    const report = await discardScanbackPage(c.get("db"), { principal: c.get("principal"), packageId: id, pageId, ipAddress: c.get("ipAddress") });
    return c.json(serializeScanbackReport(report), 200);
  })
  .openapi(pageImageRoute, async (c) => {
    const { id, pageId } = c.req.valid("param");
    const image = await getScanbackPageImage(c.get("db"), { principal: c.get("principal"), packageId: id, pageId });
    return storedFileResponse(image, { disposition: "inline" });
  })
  .openapi(reviewRoute, async (c) => {
    const { id, docId } = c.req.valid("param");
    const { document } = await reviewDocumentScan(c.get("db"), { principal: c.get("principal"), packageId: id, documentId: docId, review: c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(execution(document), 200);
  })
  .openapi(convertRoute, async (c) => {
    const { id } = c.req.valid("param");
    const converted = await convertPackageToInk(c.get("db"), { principal: c.get("principal"), packageId: id, ipAddress: c.get("ipAddress") });
    return c.json({ converted: converted.map(execution) }, 200);
  })
  .openapi(getAgentLinkRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(serializeAgentLink(await getAgentLinkStatus(c.get("db"), { principal: c.get("principal"), packageId: id })), 200);
  })
  .openapi(issueAgentLinkRoute, async (c) => {
    const { id } = c.req.valid("param");
    const principal = c.get("principal");
    await issueAgentLink(c.get("db"), { principal, packageId: id, input: c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeAgentLink(await getAgentLinkStatus(c.get("db"), { principal, packageId: id })), 201);
  })
  .openapi(revokeAgentLinkRoute, async (c) => {
    const { id } = c.req.valid("param");
    await revokeAgentLink(c.get("db"), { principal: c.get("principal"), packageId: id, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  });
