import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gte, inArray, isNull, or } from "drizzle-orm";
import { z } from "zod";
import { objectDownload, putObject, readObject, type StoredDownload } from "@/lib/storage/objects";
import type { Db } from "@/db/client";
import { packageDocuments, scanbackPages, scanbackScans, type PackageDocument, type ScanbackPage, type ScanbackScan, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { auditActorOf } from "@/lib/auth/agent-session-principal";
import { actorUserIdOf } from "@/lib/signer-access/signer-session-principal";
import { AppError, BadRequest, Conflict, NotFound } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { isUuid } from "@/lib/ids";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";
import { attachDocumentScan } from "./attach-document-scan";
import { isInkMode } from "@/lib/packages/document-state-machine";
import { processScanbackScanJob } from "./process-scanback-scan-job";
import { checkScanUploads, turnPage, type ScanUpload } from "./scan-pages";
import { failScan, finishScan, processScanChunk, recordScan, SCAN_CHUNK_PAGES } from "./scanback-scan";

/**
 * How one open scanback page stands in the report:
 * - `matched`: its code names a page of an ink document of this package;
 * - `assigned`: unreadable, placed by hand (document and page number);
 * - `duplicate`: another open page, uploaded later, is the same document page (the later one is used);
 * - `other_package`: its code is genuine but names another package's page (it is never attached);
 * - `unreadable`: no code of ours could be read (a blank page, the cover sheet, a code cut off or
 *   damaged, or a code whose check fails): assign it by hand or discard it.
 */
export type ScanbackPageStatus = "matched" | "assigned" | "duplicate" | "other_package" | "unreadable";

export type ScanbackReportPage = {
  id: string;
  uploadId: string;
  sourceName: string;
  sourcePage: number;
  status: ScanbackPageStatus;
  documentId: string | null;
  documentName: string | null;
  pageNumber: number | null;
  uploadedAt: Date;
};

export type ScanbackReportDocument = {
  id: string;
  name: string;
  executionMode: PackageDocument["executionMode"];
  executionStatus: PackageDocument["executionStatus"];
  pageCount: number;
  /** Page numbers with an open page (matched or assigned). */
  pagesFound: number[];
  missingPages: number[];
  duplicatePages: number[];
  /** Every page is there and the document takes a scan now (pending or rejected): accepting attaches it. */
  ready: boolean;
};

export type ScanbackReport = {
  packageId: string;
  /** Every open page (uploaded, not yet attached), oldest upload first, then page by page. */
  pages: ScanbackReportPage[];
  /** Every ink document of the package. */
  documents: ScanbackReportDocument[];
};

const TAKES_SCAN = new Set<PackageDocument["executionStatus"]>(["pending", "rejected"]);

function buildReport(packageId: string, documents: PackageDocument[], open: ScanbackPage[]): ScanbackReport {
  const ink = documents.filter((d) => isInkMode(d.executionMode));
  const byId = new Map(ink.map((d) => [d.id, d]));
  // The newest open page of each document page wins; older ones are duplicates.
  const latest = new Map<string, ScanbackPage>();
  for (const page of open) {
    if ((page.outcome === "matched" || page.outcome === "assigned") && page.documentId && byId.has(page.documentId)) {
      latest.set(`${page.documentId}:${page.pageNumber}`, page);
    }
  }
  const pages = open.map((page): ScanbackReportPage => {
    const placed = (page.outcome === "matched" || page.outcome === "assigned") && page.documentId && byId.has(page.documentId);
    const key = `${page.documentId}:${page.pageNumber}`;
    const status: ScanbackPageStatus = placed
      ? latest.get(key)?.id === page.id
        ? (page.outcome as "matched" | "assigned")
        : "duplicate"
      : page.outcome === "other_package"
        ? "other_package"
        : "unreadable";
    const document = placed ? byId.get(page.documentId!) : undefined;
    return {
      id: page.id,
      uploadId: page.uploadId,
      sourceName: page.sourceName,
      sourcePage: page.sourcePage,
      status,
      documentId: document?.id ?? null,
      documentName: document?.name ?? null,
      pageNumber: document ? page.pageNumber : null,
      uploadedAt: page.createdAt,
    };
  });
  const reportDocuments = ink.map((document): ScanbackReportDocument => {
    const mine = pages.filter((p) => p.documentId === document.id);
    const found = [...new Set(mine.filter((p) => p.status !== "duplicate").map((p) => p.pageNumber!))].sort((a, b) => a - b);
    const duplicates = [...new Set(mine.filter((p) => p.status === "duplicate").map((p) => p.pageNumber!))].sort((a, b) => a - b);
    const missing: number[] = [];
    if (found.length > 0) for (let n = 1; n <= document.pageCount; n++) if (!found.includes(n)) missing.push(n);
    return {
      id: document.id,
      name: document.name,
      executionMode: document.executionMode,
      executionStatus: document.executionStatus,
      pageCount: document.pageCount,
      pagesFound: found,
      missingPages: found.length === 0 && TAKES_SCAN.has(document.executionStatus) ? range(document.pageCount) : missing,
      duplicatePages: duplicates,
      ready: TAKES_SCAN.has(document.executionStatus) && found.length === document.pageCount,
    };
  });
  return { packageId, pages, documents: reportDocuments };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

async function loadReport(db: Db, signing: SigningPackage): Promise<ScanbackReport> {
  const [documents, open] = await Promise.all([
    db.select().from(packageDocuments).where(eq(packageDocuments.packageId, signing.id)).orderBy(asc(packageDocuments.position), asc(packageDocuments.createdAt), asc(packageDocuments.id)),
    openPages(db, signing.id),
  ]);
  return buildReport(signing.id, documents, open);
}

function openPages(db: Db, packageId: string): Promise<ScanbackPage[]> {
  return db
    .select()
    .from(scanbackPages)
    .where(and(eq(scanbackPages.packageId, packageId), isNull(scanbackPages.attachedAt)))
    .orderBy(asc(scanbackPages.createdAt), asc(scanbackPages.sourceName), asc(scanbackPages.sourcePage), asc(scanbackPages.id));
}

function assertOpen(signing: SigningPackage) {
  if (!isOpenSigningStatus(signing.status)) {
    throw Conflict(`This signing package is ${signingStatusLabel(signing.status)}; it takes no more scans.`, "package_closed");
  }
}

/** The open scanback report of a package the caller manages: every uploaded page not yet attached, and each ink document's pages found, missing and duplicated. */
export async function getScanbackReport(db: Db, options: { principal: Principal; packageId: string }): Promise<ScanbackReport> {
  requireCapability(options.principal, "scanbacks:read", "You do not have permission to read scanned pages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "scanbacks:read" });
  return loadReport(db, signing);
}

export type UploadScanbackOptions = {
  principal: Principal;
  packageId: string;
  files: readonly ScanUpload[];
  ipAddress?: string | null;
  /** Pages read within the request; a larger scan is read in the background. Default one chunk. */
  inlinePages?: number;
};

/** The media types of a scan (a direct upload declares one of them; inline files are sniffed). */
export const SCAN_UPLOAD_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;

/** How a scan upload stands: `queued` or `processing` while its pages are read, then `done` (or `failed`, with the reason). */
export type ScanbackScanStatus = {
  id: string;
  packageId: string;
  uploadId: string;
  status: ScanbackScan["status"];
  totalPages: number;
  processedPages: number;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
};

const scanStatus = (scan: ScanbackScan): ScanbackScanStatus => ({
  id: scan.id,
  packageId: scan.packageId,
  uploadId: scan.uploadId,
  status: scan.status,
  totalPages: scan.totalPages,
  processedPages: scan.processedPages,
  error: scan.error,
  createdAt: scan.createdAt,
  finishedAt: scan.finishedAt,
});

/** A scan has been read before this long after upload unless something is wrong: the job that backs up the request waits this long. */
const INLINE_SAFETY_NET_MS = 2 * 60_000;

/**
 * Takes one upload of scanned pages (PDFs and JPEG/PNG images, any order, any turn). The request
 * checks the files (sizes, types, page counts: a bad file is refused and nothing is stored), stores
 * them as they came and records a scan with its job, in one transaction. Then:
 * - a scan of at most `inlinePages` pages (one chunk) is read at once, within the request, and the
 *   answer is `done` with the report (its job, due two minutes later, only finishes a scan that a
 *   killed request left halfway);
 * - a larger scan is read in the background, chunk by chunk (`process-scanback-scan`): the answer
 *   is `queued`, and `getScanbackScan` tells how far it is.
 * Reading a page: cut out of its file, its code read, stored upright when read, as an open
 * scanback page. Nothing is attached to a document yet: that is `acceptScanback`. Refused with 409
 * once the package is closed.
 */
export async function uploadScanback(
  db: Db,
  options: UploadScanbackOptions,
): Promise<{ uploadId: string; pageCount: number; scan: ScanbackScanStatus; report: ScanbackReport }> {
  requireCapability(options.principal, "scanbacks:write", "You do not have permission to upload scans.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "scanbacks:write" });
  assertOpen(signing);
  const documents = await db.select().from(packageDocuments).where(eq(packageDocuments.packageId, signing.id));
  if (!documents.some((d) => isInkMode(d.executionMode))) throw Conflict("This package has no document signed in ink, so it takes no scans.");

  const files = await checkScanUploads(options.files);
  const inline = files.reduce((sum, f) => sum + f.pageCount, 0) <= (options.inlinePages ?? SCAN_CHUNK_PAGES);
  const uploadId = randomUUID();
  const { scan } = await db.transaction(async (tx) => {
    const locked = await getSigningOrThrow(tx, { ...options, capability: "scanbacks:write", lock: true });
    assertOpen(locked);
    const recorded = await recordScan(tx, {
      packageId: locked.id,
      organizationId: locked.organizationId,
      uploadId,
      files,
      uploadedByUserId: actorUserIdOf(options.principal),
      audit: { ...auditActorOf(options.principal), ipAddress: options.ipAddress ?? null },
    });
    await enqueueJob(
      tx,
      processScanbackScanJob,
      { scanId: recorded.scan.id },
      { idempotencyKey: recorded.scan.id, fairnessKey: String(locked.organizationId), ...(inline ? { runAt: new Date(Date.now() + INLINE_SAFETY_NET_MS) } : {}) },
    );
    return recorded;
  });
  if (!inline) {
    return { uploadId, pageCount: scan.totalPages, scan: scanStatus(scan), report: await loadReport(db, signing) };
  }
  try {
    await processScanChunk(db, scan.id, 0);
  } catch (error) {
    // The request answers with the reason (a page refused for its content, the renderer unavailable),
    // as before; the scan is failed rather than left to its job, so a second upload never doubles it.
    const cause = error instanceof Error && error.cause instanceof AppError ? error.cause : error;
    await failScan(db, scan.id, cause instanceof Error ? cause.message : String(cause));
    throw cause;
  }
  const done = (await finishScan(db, scan.id))!;
  return { uploadId, pageCount: done.totalPages, scan: scanStatus(done), report: await loadReport(db, signing) };
}

/** One scan of a package the caller reads: how far it is, and the package's report. */
export async function getScanbackScan(db: Db, options: { principal: Principal; packageId: string; scanId: string }): Promise<{ scan: ScanbackScanStatus; report: ScanbackReport }> {
  requireCapability(options.principal, "scanbacks:read", "You do not have permission to read scanned pages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "scanbacks:read" });
  const notFound = NotFound(`Scan ${options.scanId.slice(0, 64)} not found.`);
  if (!isUuid(options.scanId)) throw notFound;
  const [scan] = await db.select().from(scanbackScans).where(and(eq(scanbackScans.id, options.scanId), eq(scanbackScans.packageId, signing.id)));
  if (!scan) throw notFound;
  return { scan: scanStatus(scan), report: await loadReport(db, signing) };
}

/** The package's scans still being read, and those that failed in the last day, newest first (the closing pages show their progress). */
export async function listActiveScanbackScans(db: Db, options: { principal: Principal; packageId: string }): Promise<ScanbackScanStatus[]> {
  requireCapability(options.principal, "scanbacks:read", "You do not have permission to read scanned pages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "scanbacks:read" });
  const since = new Date(Date.now() - 24 * 3600_000);
  const rows = await db
    .select()
    .from(scanbackScans)
    .where(
      and(
        eq(scanbackScans.packageId, signing.id),
        or(inArray(scanbackScans.status, ["queued", "processing"]), and(eq(scanbackScans.status, "failed"), gte(scanbackScans.createdAt, since))),
      ),
    )
    .orderBy(desc(scanbackScans.createdAt))
    .limit(20);
  return rows.map(scanStatus);
}

/** How far a page must be turned clockwise to stand upright. */
export const PAGE_ROTATIONS = [0, 90, 180, 270] as const;

/**
 * Placing an unreadable page by hand: which ink document of the package, which page of it, and how
 * far to turn it clockwise to stand upright (the reader could not tell: its code was not read).
 */
export const scanbackAssignmentSchema = z
  .object({
    documentId: z.uuid("documentId must be a document id"),
    pageNumber: z.coerce.number().int("pageNumber must be a whole number").min(1, "pageNumber must be at least 1").max(10_000),
    rotation: z.coerce
      .number()
      .refine((n): n is (typeof PAGE_ROTATIONS)[number] => (PAGE_ROTATIONS as readonly number[]).includes(n), "rotation must be 0, 90, 180 or 270")
      .optional(),
  })
  .strict();
export type ScanbackAssignment = z.infer<typeof scanbackAssignmentSchema>;

async function getOpenPageOrThrow(tx: Db, packageId: string, pageId: string): Promise<ScanbackPage> {
  const notFound = NotFound(`Scanned page ${pageId.slice(0, 64)} not found.`);
  if (!isUuid(pageId)) throw notFound;
  const [page] = await tx
    .select()
    .from(scanbackPages)
    .where(and(eq(scanbackPages.id, pageId), eq(scanbackPages.packageId, packageId), isNull(scanbackPages.attachedAt)))
    .limit(1);
  if (!page) throw notFound;
  return page;
}

/**
 * Assigns an open page the reader could not place to a page of one of the package's ink documents
 * (outcome `assigned`). A page that carries another package's code is refused (409): it belongs to
 * that package. A page read as matched can be re-assigned too (a misprint is the manager's call).
 */
export async function assignScanbackPage(
  db: Db,
  options: { principal: Principal; packageId: string; pageId: string; assignment: ScanbackAssignment; ipAddress?: string | null },
): Promise<ScanbackReport> {
  requireCapability(options.principal, "signings:write", "You do not have permission to upload scans.");
  const assignment = scanbackAssignmentSchema.safeParse(options.assignment);
  if (!assignment.success) throw BadRequest(assignment.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertOpen(signing);
    const page = await getOpenPageOrThrow(tx, signing.id, options.pageId);
    if (page.outcome === "other_package") throw Conflict("This page carries another package's code; it cannot be part of this package. Discard it.");
    const [document] = await tx
      .select()
      .from(packageDocuments)
      .where(and(eq(packageDocuments.id, assignment.data.documentId), eq(packageDocuments.packageId, signing.id)))
      .limit(1);
    if (!document) throw NotFound(`Document ${assignment.data.documentId} not found.`);
    if (!isInkMode(document.executionMode)) throw Conflict(`Document "${document.name}" is not signed in ink; it takes no scanned pages.`);
    if (assignment.data.pageNumber > document.pageCount) {
      throw BadRequest(`pageNumber: "${document.name}" has ${document.pageCount} page${document.pageCount === 1 ? "" : "s"}.`);
    }
    const rotation = (assignment.data.rotation ?? 0) as (typeof PAGE_ROTATIONS)[number];
    // Stored upright, like a page whose code was read: the attached scan shows it as the manager saw it turned.
    const upright =
      rotation === 0
        ? null
        : await turnPage({ sourceName: page.sourceName, sourcePage: page.sourcePage, bytes: await readObject(tx, page.imageStorageKey), contentType: page.contentType as "image/png" | "image/jpeg" }, rotation);
    await tx
      .update(scanbackPages)
      .set({ outcome: "assigned", documentId: document.id, pageNumber: assignment.data.pageNumber, ...(upright ? await storedImage(tx, upright.bytes, upright.contentType) : {}) })
      .where(eq(scanbackPages.id, page.id));
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "scanback.page_assigned",
      entityType: "scanback_page",
      entityId: page.id,
      ipAddress: options.ipAddress,
      before: { outcome: page.outcome, documentId: page.documentId, pageNumber: page.pageNumber },
      after: { outcome: "assigned", documentId: document.id, pageNumber: assignment.data.pageNumber, rotation },
    });
    return loadReport(tx, signing);
  });
}

/** Removes an open page from the report (a blank page, the cover sheet, another package's page, a bad duplicate). */
export async function discardScanbackPage(
  db: Db,
  options: { principal: Principal; packageId: string; pageId: string; ipAddress?: string | null },
): Promise<ScanbackReport> {
  requireCapability(options.principal, "signings:write", "You do not have permission to upload scans.");
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    const page = await getOpenPageOrThrow(tx, signing.id, options.pageId);
    await tx.delete(scanbackPages).where(eq(scanbackPages.id, page.id));
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "scanback.page_discarded",
      entityType: "scanback_page",
      entityId: page.id,
      ipAddress: options.ipAddress,
      before: { outcome: page.outcome, documentId: page.documentId, pageNumber: page.pageNumber, sourceName: page.sourceName, sourcePage: page.sourcePage },
    });
    return loadReport(tx, signing);
  });
}

/** Which documents to attach; without `documentIds`, every document that is ready. */
export const scanbackAcceptSchema = z.object({ documentIds: z.array(z.uuid("documentIds must be document ids")).min(1).max(500).optional() }).strict();
export type ScanbackAccept = z.infer<typeof scanbackAcceptSchema>;

/**
 * Attaches the open pages to their documents: for every ready ink document (every page there, no
 * scan waiting or accepted), its pages in page order (the newest upload of each page) become the
 * document's scan and it moves to `scan_uploaded`, awaiting a manager's review. Its pages leave the
 * report (older duplicates with them). A named document that is not ready is 409 with what is
 * missing; with nothing ready at all, 409.
 */
export async function acceptScanback(
  db: Db,
  options: { principal: Principal; packageId: string; accept?: ScanbackAccept; ipAddress?: string | null },
): Promise<{ attached: PackageDocument[]; report: ScanbackReport }> {
  requireCapability(options.principal, "signings:write", "You do not have permission to upload scans.");
  const accept = scanbackAcceptSchema.safeParse(options.accept ?? {});
  if (!accept.success) throw BadRequest(accept.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertOpen(signing);
    const documents = await tx.select().from(packageDocuments).where(eq(packageDocuments.packageId, signing.id));
    const open = await openPages(tx, signing.id);
    const report = buildReport(signing.id, documents, open);
    const wanted = accept.data.documentIds;
    if (wanted) {
      for (const id of wanted) {
        const entry = report.documents.find((d) => d.id === id);
        if (!entry) throw NotFound(`Document ${id} is not an ink document of this package.`);
        if (!entry.ready) throw Conflict(notReadyMessage(entry));
      }
    }
    const chosen = report.documents.filter((d) => d.ready && (!wanted || wanted.includes(d.id)));
    if (chosen.length === 0) throw Conflict("No document has all its pages yet; upload the missing pages or assign unreadable ones first.");
    const now = new Date();
    const attached: PackageDocument[] = [];
    for (const entry of chosen) {
      const document = documents.find((d) => d.id === entry.id)!;
      const pageRows = report.pages
        .filter((p) => p.documentId === entry.id && p.status !== "duplicate")
        .sort((a, b) => a.pageNumber! - b.pageNumber!)
        .map((p) => open.find((o) => o.id === p.id)!);
      const after = await attachDocumentScan(tx, document, {
        organizationId: signing.organizationId,
        pages: await Promise.all(pageRows.map(async (p) => ({ bytes: await readObject(tx, p.imageStorageKey), contentType: p.contentType === "image/png" ? "image/png" : "image/jpeg" as const }))),
        actorUserId: options.principal.user.id,
        ipAddress: options.ipAddress,
      });
      attached.push(after);
      await tx.update(scanbackPages).set({ attachedAt: now }).where(inArray(scanbackPages.id, pageRows.map((p) => p.id)));
      const superseded = report.pages.filter((p) => p.documentId === entry.id && p.status === "duplicate").map((p) => p.id);
      if (superseded.length > 0) await tx.delete(scanbackPages).where(inArray(scanbackPages.id, superseded));
    }
    return { attached, report: await loadReport(tx, signing) };
  });
}

function notReadyMessage(entry: ScanbackReportDocument): string {
  if (!TAKES_SCAN.has(entry.executionStatus)) {
    return `Document "${entry.name}" already has a scan ${entry.executionStatus === "accepted" ? "accepted" : "waiting for review"}.`;
  }
  return `Document "${entry.name}" is missing page${entry.missingPages.length === 1 ? "" : "s"} ${entry.missingPages.join(", ")}.`;
}

/** One open page's image, for the manager looking at an unreadable page before assigning it (and the settlement agent at their upload). */
export async function getScanbackPageImage(
  db: Db,
  options: { principal: Principal; packageId: string; pageId: string },
): Promise<StoredDownload> {
  requireCapability(options.principal, "scanbacks:read", "You do not have permission to read scanned pages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "scanbacks:read" });
  const page = await getOpenPageOrThrow(db, signing.id, options.pageId);
  const fileName = `${page.sourceName.replace(/\.[a-z]+$/i, "")} p${page.sourcePage}.${page.contentType === "image/png" ? "png" : "jpg"}`;
  return objectDownload(db, { fileName, contentType: page.contentType, sha256: page.imageSha256, storageKey: page.imageStorageKey });
}

/** Stores a page image as an object; the columns a scanback page row keeps for it. */
async function storedImage(db: Db, bytes: Uint8Array, contentType: string) {
  const stored = await putObject(db, { bytes, contentType });
  return { imageStorageKey: stored.storageKey, imageSizeBytes: stored.sizeBytes, imageSha256: stored.sha256, contentType };
}
