import { and, asc, count, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import { NonRetriableError } from "inngest";
import type { Db } from "@/db/client";
import { packageDocuments, scanbackPages, scanbackScanFiles, scanbackScans, signingPackages, type ScanbackScan } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { putObject, readObject } from "@/lib/storage/objects";
import { isOpenSigningStatus } from "@/lib/packages/state-machine";
import { isInkMode } from "@/lib/packages/document-state-machine";
import { readPageCode } from "./read-page-code";
import { scanFilePages, turnPage, type CheckedScanFile, type ScanPage } from "./scan-pages";

/**
 * Pages read in one chunk: one Inngest step or one local job run. A page costs 50–300 ms (a
 * scanner's JPEG taken as it is, or a page rendered at 150 dpi), and at most its 20 s budget, so a
 * chunk stays well inside a function's time limit whatever the scan's size.
 */
export const SCAN_CHUNK_PAGES = 10;

/** A scan in the making: stored and recorded, its pages still to read. */
export type NewScan = { scan: ScanbackScan; chunks: number };

export const scanChunkCount = (totalPages: number, chunkSize: number) => Math.max(1, Math.ceil(totalPages / chunkSize));

/**
 * Stores a checked scanback upload's files as objects and records the scan (`queued`, nothing read
 * yet) with its files in order. Run it in the caller's transaction with the package row locked; the
 * caller processes the scan at once (one chunk) or enqueues its job.
 */
export async function recordScan(
  tx: Db,
  options: {
    packageId: string;
    organizationId: number;
    uploadId: string;
    files: readonly CheckedScanFile[];
    uploadedByUserId: string | null;
    audit: ScanbackScan["audit"];
    chunkSize?: number;
  },
): Promise<NewScan> {
  const chunkSize = options.chunkSize ?? SCAN_CHUNK_PAGES;
  const totalPages = options.files.reduce((sum, f) => sum + f.pageCount, 0);
  const [scan] = await tx
    .insert(scanbackScans)
    .values({
      packageId: options.packageId,
      organizationId: options.organizationId,
      uploadId: options.uploadId,
      totalPages,
      chunkSize,
      uploadedByUserId: options.uploadedByUserId,
      audit: options.audit,
    })
    .returning();
  let firstIndex = 0;
  const rows = [];
  for (const [position, file] of options.files.entries()) {
    const contentType = file.kind === "pdf" ? "application/pdf" : file.kind === "png" ? "image/png" : "image/jpeg";
    const { storageKey } = await putObject(tx, { bytes: file.bytes, contentType });
    rows.push({ scanId: scan!.id, position, name: file.name, kind: file.kind, storageKey, pageCount: file.pageCount, firstIndex });
    firstIndex += file.pageCount;
  }
  await tx.insert(scanbackScanFiles).values(rows);
  return { scan: scan!, chunks: scanChunkCount(totalPages, chunkSize) };
}

export type ChunkResult = {
  /** Pages read and stored by this run of the chunk. */
  read: number;
  /** Pages of the chunk already stored by an earlier run (a crash, a frozen instance, a retry). */
  skipped: number;
};

export type ChunkHooks = {
  /** Called after each page's row is stored, with its scan index (tests simulate a crash here). */
  afterPage?: (scanIndex: number) => void | Promise<void>;
};

/**
 * Reads chunk `chunk` (0-based) of a scan: the pages `[chunk × chunkSize, (chunk + 1) × chunkSize)`
 * not yet stored. Each page is cut out of its file (`scanFilePages`: the page's time and memory
 * budget, the organization's fair turn), its code read, turned upright, stored as an object and
 * written as a `scanback_pages` row the moment it is done, so a run killed halfway resumes at the
 * first page missing and never reads a stored page again (the row is unique per scan and index).
 * A page refused for its content (over its budget, damaged, too large) fails the scan for good with
 * that reason (`NonRetriableError`); anything else (the database, the renderer not loading) throws
 * as it is, for the engine to retry.
 */
export async function processScanChunk(db: Db, scanId: string, chunk: number, hooks: ChunkHooks = {}): Promise<ChunkResult> {
  const [scan] = await db.select().from(scanbackScans).where(eq(scanbackScans.id, scanId));
  if (!scan || scan.status === "done" || scan.status === "failed") return { read: 0, skipped: 0 };
  const from = chunk * scan.chunkSize;
  const to = Math.min(scan.totalPages, from + scan.chunkSize);
  if (from >= to) return { read: 0, skipped: 0 };
  const stored = new Set(
    (
      await db
        .select({ index: scanbackPages.scanIndex })
        .from(scanbackPages)
        .where(and(eq(scanbackPages.scanId, scanId), gte(scanbackPages.scanIndex, from), lt(scanbackPages.scanIndex, to)))
    ).map((r) => r.index!),
  );
  const missing: number[] = [];
  for (let index = from; index < to; index++) if (!stored.has(index)) missing.push(index);
  if (missing.length === 0) return { read: 0, skipped: to - from };

  const [signing] = await db.select({ id: signingPackages.id, status: signingPackages.status }).from(signingPackages).where(eq(signingPackages.id, scan.packageId));
  if (!signing || !isOpenSigningStatus(signing.status)) {
    await failScan(db, scanId, "The package was closed before its scan was read.");
    throw new NonRetriableError(`Scan ${scanId}: the package is closed`);
  }
  if (scan.status === "queued") await db.update(scanbackScans).set({ status: "processing" }).where(eq(scanbackScans.id, scanId));
  const documents = await db.select().from(packageDocuments).where(eq(packageDocuments.packageId, scan.packageId));
  const ink = new Map(documents.filter((d) => isInkMode(d.executionMode)).map((d) => [d.id, d]));
  const files = await db.select().from(scanbackScanFiles).where(eq(scanbackScanFiles.scanId, scanId)).orderBy(asc(scanbackScanFiles.position));

  let read = 0;
  for (const file of files) {
    const mine = missing.filter((index) => index >= file.firstIndex && index < file.firstIndex + file.pageCount);
    if (mine.length === 0) continue;
    const bytes = await readObject(db, file.storageKey);
    let pages: ScanPage[];
    try {
      pages = await scanFilePages({ name: file.name, kind: file.kind, bytes }, mine.map((index) => index - file.firstIndex + 1), { owner: String(scan.organizationId) });
    } catch (error) {
      if (error instanceof AppError && error.code !== "unavailable") {
        await failScan(db, scanId, error.message);
        throw new NonRetriableError(error.message, { cause: error });
      }
      throw error;
    }
    for (const page of pages) {
      const scanIndex = file.firstIndex + page.sourcePage - 1;
      const row = await pageRow(db, page, scan, ink);
      await db
        .insert(scanbackPages)
        .values({ ...row, scanId, scanIndex })
        .onConflictDoNothing({ target: [scanbackPages.scanId, scanbackPages.scanIndex] });
      // The progress the closing pages and /v1 show, page by page.
      await db
        .update(scanbackScans)
        .set({ processedPages: sql`(select count(*) from ${scanbackPages} where ${scanbackPages.scanId} = ${scanId})` })
        .where(eq(scanbackScans.id, scanId));
      read++;
      await hooks.afterPage?.(scanIndex);
    }
  }
  return { read, skipped: to - from - missing.length };
}

/** One page read: its code, upright when read, stored; how it matched this package's ink documents. */
async function pageRow(db: Db, page: ScanPage, scan: ScanbackScan, ink: Map<string, typeof packageDocuments.$inferSelect>) {
  // Stamped with the upload's time, however late the chunk ran: the report lists uploads oldest first.
  const base = { packageId: scan.packageId, uploadId: scan.uploadId, sourceName: page.sourceName, sourcePage: page.sourcePage, uploadedByUserId: scan.uploadedByUserId, createdAt: scan.createdAt };
  const reading = await readPageCode(page.bytes, page.code);
  if (reading.outcome !== "read") return { ...base, ...(await storedImage(db, page)), outcome: "unreadable" as const };
  const image = await storedImage(db, await turnPage(page, reading.rotation));
  const { ref } = reading;
  if (ref.packageId !== scan.packageId) return { ...base, ...image, outcome: "other_package" as const };
  const document = ink.get(ref.documentId);
  if (!document || ref.page > document.pageCount) return { ...base, ...image, outcome: "unreadable" as const };
  return { ...base, ...image, outcome: "matched" as const, documentId: document.id, pageNumber: ref.page };
}

async function storedImage(db: Db, page: ScanPage) {
  const stored = await putObject(db, { bytes: page.bytes, contentType: page.contentType });
  return { imageStorageKey: stored.storageKey, imageSizeBytes: stored.sizeBytes, imageSha256: stored.sha256, contentType: page.contentType };
}

/**
 * Marks a scan `failed` with the reason shown to whoever uploaded it, and takes its pages read so far
 * out of the report: a scan counts whole or not at all, so uploading it again (fixed) never doubles a page.
 */
export async function failScan(db: Db, scanId: string, reason: string) {
  log.warn("scanback scan failed", { scanId, reason });
  await db.transaction(async (tx) => {
    const [failed] = await tx
      .update(scanbackScans)
      .set({ status: "failed", error: reason.slice(0, 1000), finishedAt: new Date(), processedPages: 0 })
      .where(and(eq(scanbackScans.id, scanId), inArray(scanbackScans.status, ["queued", "processing"])))
      .returning({ id: scanbackScans.id });
    if (failed) await tx.delete(scanbackPages).where(and(eq(scanbackPages.scanId, scanId), isNull(scanbackPages.attachedAt)));
  });
}

/**
 * Closes a scan whose every page is stored: `done`, with the upload's audit entry (pages, and how
 * many matched, carried another package's code or could not be read). Safe to run again.
 */
export async function finishScan(db: Db, scanId: string): Promise<ScanbackScan | undefined> {
  return db.transaction(async (tx) => {
    const [scan] = await tx.select().from(scanbackScans).where(eq(scanbackScans.id, scanId)).for("update");
    if (!scan || scan.status === "done" || scan.status === "failed") return scan;
    const outcomes = await tx
      .select({ outcome: scanbackPages.outcome, n: count() })
      .from(scanbackPages)
      .where(eq(scanbackPages.scanId, scanId))
      .groupBy(scanbackPages.outcome);
    const of = (outcome: string) => Number(outcomes.find((o) => o.outcome === outcome)?.n ?? 0);
    const pages = outcomes.reduce((sum, o) => sum + Number(o.n), 0);
    if (pages < scan.totalPages) throw new Error(`Scan ${scanId} has ${pages} of ${scan.totalPages} pages stored; it cannot finish yet`);
    const [files] = await tx.select({ n: count() }).from(scanbackScanFiles).where(eq(scanbackScanFiles.scanId, scanId));
    const [done] = await tx
      .update(scanbackScans)
      .set({ status: "done", processedPages: pages, finishedAt: new Date(), error: null })
      .where(eq(scanbackScans.id, scanId))
      .returning();
    await recordAuditEntry(tx, {
      organizationId: scan.organizationId,
      packageId: scan.packageId,
      actorUserId: scan.uploadedByUserId,
      action: "scanback.uploaded",
      entityType: "signing_package",
      entityId: scan.packageId,
      ipAddress: scan.audit.ipAddress ?? null,
      after: {
        ...(scan.audit.actor ? { actor: scan.audit.actor } : {}),
        uploadId: scan.uploadId,
        scanId,
        files: Number(files?.n ?? 0),
        pages,
        matched: of("matched"),
        otherPackage: of("other_package"),
        unreadable: of("unreadable"),
      },
    });
    return done;
  });
}
