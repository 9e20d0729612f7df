import { z } from "@hono/zod-openapi";
import { documentExecutionStatusEnum, executionModeEnum } from "@/db/schema/execution-modes";
import { scanbackPageOutcomeEnum, scanbackScanStatusEnum } from "@/db/schema/hybrid-closings";
import { IsoDateTime, orNull, SafeString } from "./common";

export const ExecutionModeSchema = z
  .enum(executionModeEnum.enumValues)
  .openapi("ExecutionMode", { description: "`esign` signed on screen; `wet_sign` printed and signed in ink at the table; `notarize` in ink before a notary; `review_only` only acknowledged" });
export const DocumentExecutionStatusSchema = z.enum(documentExecutionStatusEnum.enumValues).openapi("DocumentExecutionStatus");

const Moment = z.iso.datetime({ offset: true, error: "expected an ISO 8601 date-time with an offset" });

export const ClosingAppointmentSchema = z
  .strictObject({
    closingAt: Moment.nullable().optional().openapi({ description: "When the closing appointment is", example: "2026-12-01T15:00:00Z" }),
    closingPlace: SafeString.trim().max(500).nullable().optional().openapi({ example: "Title office, 1 Main St" }),
    settlementAgent: SafeString.trim().max(200).nullable().optional(),
    esignOpensAt: Moment.nullable().optional().openapi({ description: "E-signing is refused before this moment (a lender's waiting period)" }),
  })
  .openapi("ClosingAppointment");

export const UpdateClosingSchema = ClosingAppointmentSchema.refine((v) => Object.keys(v).length > 0, { error: "at least one field is required" }).openapi("UpdateClosingRequest");

export const ClosingSchema = z
  .object({
    packageId: z.string(),
    closingAt: IsoDateTime.nullable(),
    closingPlace: z.string().nullable(),
    settlementAgent: z.string().nullable(),
    esignOpensAt: IsoDateTime.nullable(),
    summary: z.object({
      esigned: z.number().int(),
      toESign: z.number().int(),
      atTable: z.number().int(),
      scanToReview: z.number().int(),
      accepted: z.number().int(),
      rejected: z.number().int(),
      toRead: z.number().int(),
      acknowledged: z.number().int(),
      text: z.string().openapi({ example: "2 e-signed · 1 at the table · 1 scan to review" }),
    }),
    documents: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        pageCount: z.number().int(),
        executionMode: ExecutionModeSchema,
        executionStatus: DocumentExecutionStatusSchema,
        scan: z
          .object({
            sha256: z.string(),
            pageCount: z.number().int(),
            uploadedAt: IsoDateTime,
            reviewedAt: IsoDateTime.nullable(),
            reviewedBy: z.string().nullable(),
            rejectReason: z.string().nullable(),
          })
          .nullable(),
      }),
    ),
  })
  .openapi("Closing");

export const SetExecutionModeSchema = z.strictObject({ executionMode: ExecutionModeSchema }).openapi("SetExecutionModeRequest");

export const ExecutionModeResultSchema = z
  .object({ id: z.string(), name: z.string(), executionMode: ExecutionModeSchema, executionStatus: DocumentExecutionStatusSchema })
  .openapi("DocumentExecution");

export const ScanReviewSchema = z
  .discriminatedUnion("decision", [
    z.strictObject({ decision: z.literal("accept"), reason: SafeString.trim().max(1000).optional() }),
    z.strictObject({ decision: z.literal("reject"), reason: SafeString.trim().min(1, "a reason is required to reject a scan").max(1000) }),
  ])
  .openapi("ScanReviewRequest");

export const ScanbackPageStatusSchema = z.enum(scanbackPageOutcomeEnum.enumValues).openapi("ScanbackPageStatus", {
  description:
    "`matched`: the page's code names a page of this package's ink document; `assigned`: placed by hand; `duplicate`: a later upload of the same page is used instead; " +
    "`other_package`: the code names another package's page (never attached); `unreadable`: no code of ours was read (blank page, cover sheet, damaged code)",
});

export const ScanbackReportSchema = z
  .object({
    packageId: z.string(),
    pages: z.array(
      z.object({
        id: z.string(),
        uploadId: z.string(),
        sourceName: z.string(),
        sourcePage: z.number().int(),
        status: ScanbackPageStatusSchema,
        documentId: z.string().nullable(),
        documentName: z.string().nullable(),
        pageNumber: z.number().int().nullable(),
        uploadedAt: IsoDateTime,
      }),
    ),
    documents: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        executionMode: ExecutionModeSchema,
        executionStatus: DocumentExecutionStatusSchema,
        pageCount: z.number().int(),
        pagesFound: z.array(z.number().int()),
        missingPages: z.array(z.number().int()),
        duplicatePages: z.array(z.number().int()),
        ready: z.boolean(),
      }),
    ),
  })
  .openapi("ScanbackReport");

export const ScanbackScanSchema = z
  .object({
    id: z.string(),
    uploadId: z.string().openapi({ description: "The `uploadId` of the scan's pages in the report" }),
    status: z.enum(scanbackScanStatusEnum.enumValues).openapi({ description: "`queued` or `processing` while its pages are read, chunk by chunk; `done`; or `failed` (see `error`: its pages are left out of the report)" }),
    totalPages: z.number().int(),
    processedPages: z.number().int().openapi({ description: "Pages read and stored so far" }),
    error: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    statusUrl: z.string().openapi({ description: "This scan's status: GET it until `status` is `done` or `failed`" }),
  })
  .openapi("ScanbackScan");

export const ScanbackUploadResultSchema = z
  .object({
    uploadId: z.string(),
    pageCount: z.number().int(),
    scan: ScanbackScanSchema,
    report: ScanbackReportSchema.openapi({ description: "The package's report: with this scan's pages once it is `done`, as it stood before while it is read" }),
  })
  .openapi("ScanbackUploadResult");

export const ScanbackScanResultSchema = z.object({ scan: ScanbackScanSchema, report: ScanbackReportSchema }).openapi("ScanbackScanResult");

export const ScanbackAcceptSchema = z
  .strictObject({ documentIds: z.array(z.uuid({ error: "expected document ids" })).min(1).max(500).optional() })
  .openapi("ScanbackAcceptRequest");

export const ScanbackAcceptResultSchema = z
  .object({ attached: z.array(ExecutionModeResultSchema), report: ScanbackReportSchema })
  .openapi("ScanbackAcceptResult");

export const ScanbackAssignSchema = z
  .strictObject({
    documentId: z.uuid({ error: "expected a document id" }),
    pageNumber: z.number({ error: "expected a page number" }).int().min(1).max(10_000),
    rotation: z
      .union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)], { error: "expected 0, 90, 180 or 270" })
      .optional()
      .openapi({ description: "Degrees to turn the page clockwise so it stands upright (default 0); the page is stored turned" }),
  })
  .openapi("ScanbackAssignRequest");

export const ScanbackScanParamsSchema = z.object({
  id: SafeString.max(100).openapi({ param: { name: "id", in: "path" } }),
  scanId: SafeString.max(100).openapi({ param: { name: "scanId", in: "path" } }),
});

export const ScanbackPageParamsSchema = z.object({
  id: SafeString.max(100).openapi({ param: { name: "id", in: "path" } }),
  pageId: SafeString.max(100).openapi({ param: { name: "pageId", in: "path" } }),
});

/** Scans uploaded straight to storage (`POST /v1/uploads`), named by id in the order they were scanned. */
export const ScanbackUploadRefsSchema = z.strictObject({
  uploadIds: z.array(z.uuid({ error: "expected an upload id (from POST /v1/uploads)" })).min(1).max(100),
});

export const ScanUploadContent = {
  // A plain JSON Schema: a zod schema in a body's content would make the route validate every body as JSON.
  "application/json": {
    schema: {
      type: "object" as const,
      properties: { uploadIds: { type: "array" as const, minItems: 1, maxItems: 100, items: { type: "string" as const, format: "uuid" }, description: "Direct uploads (POST /v1/uploads): PDFs, JPEGs or PNGs" } },
      required: ["uploadIds"],
      additionalProperties: false,
    },
  },
  "multipart/form-data": {
    schema: {
      type: "object" as const,
      properties: { files: { type: "array" as const, items: { type: "string" as const, format: "binary" } } },
      required: ["files"],
    },
  },
  "application/pdf": { schema: { type: "string" as const, format: "binary" } },
  "image/jpeg": { schema: { type: "string" as const, format: "binary" } },
  "image/png": { schema: { type: "string" as const, format: "binary" } },
};

export const ConvertToInkResultSchema = z.object({ converted: z.array(ExecutionModeResultSchema) }).openapi("ConvertToInkResult");

export const SettlementAgentLinkRequestSchema = z
  .strictObject({
    agentName: SafeString.trim().min(1).max(200).openapi({ example: "Dana Reyes" }),
    agentEmail: z.email({ error: "expected an email address" }).max(320).openapi({ example: "dana@title.example" }),
  })
  .openapi("SettlementAgentLinkRequest");

export const SettlementAgentLinkSchema = z
  .object({
    id: z.string(),
    agentName: z.string(),
    agentEmail: z.string(),
    state: z.enum(["sent", "opened", "expired", "revoked"]).openapi({ description: "`sent`: not opened yet; `opened`: exchanged for the agent's session; `expired` or `revoked`: no longer works" }),
    issuedAt: IsoDateTime,
    expiresAt: IsoDateTime.openapi({ description: "7 days after the appointment, and at least 7 days after it was issued" }),
    openedAt: IsoDateTime.nullable(),
    revokedAt: IsoDateTime.nullable(),
  })
  .openapi("SettlementAgentLink", { description: "The package's latest settlement agent link. The token is only ever in the email to the agent." });

export const SettlementAgentLinkResultSchema = z.object({ link: orNull(SettlementAgentLinkSchema) }).openapi("SettlementAgentLinkResult");
