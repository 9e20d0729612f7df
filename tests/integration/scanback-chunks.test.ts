import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InngestTestEngine } from "@inngest/test";
import { and, asc, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLog, scanbackPages, scanbackScans } from "@/db/schema";
import { jobs } from "@/db/schema/jobs";
import { createJobFunction } from "@/inngest/functions";
import { buildScanPdf } from "@/lib/closings/attach-document-scan";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { processScanbackScanJob } from "@/lib/closings/process-scanback-scan-job";
import { getScanbackScan, uploadScanback } from "@/lib/closings/scanback";
import { processScanChunk } from "@/lib/closings/scanback-scan";
import { parseEnv } from "@/lib/env";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { defineJob } from "@/lib/jobs/define-job";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { createInngestClient } from "@/lib/jobs/inngest-client";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { printToPngs, sentInkPackage } from "../helpers/ink-package";

const dir = mkdtempSync(join(tmpdir(), "scanback-chunks-"));
const NOTE_PAGES = 25;

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
}, 120_000);
afterAll(async () => {
  await testDb?.cleanup();
});
beforeEach(async () => {
  await testDb.db.execute(sql`truncate jobs`);
});

/**
 * A sent package with a 25-page note in ink, and its table packet printed and scanned the way a
 * scanner writes it: one JPEG per page, 26 pages (the cover first, which has no code), so the scan
 * is read in three chunks of 10, 10 and 6 pages.
 */
async function scannedPackage(label: string) {
  const pkg = await sentInkPackage(testDb.db, world, { label, documents: [{ name: "Note.pdf", pages: NOTE_PAGES, executionMode: "wet_sign" }] });
  const packet = await getTablePacket(testDb.db, { principal: pkg.manager, packageId: pkg.id });
  const pngs = await printToPngs(packet.content, dir, `pk${pkg.n}`, 100);
  const jpegs = await Promise.all(pngs.map(async (f) => ({ bytes: new Uint8Array(await sharp(readFileSync(f)).jpeg({ quality: 80 }).toBuffer()), contentType: "image/jpeg" as const })));
  return { pkg, note: pkg.docs[0]!, scan: await buildScanPdf(jpegs) };
}

async function pageRows(scanId: string) {
  return testDb.db.select().from(scanbackPages).where(eq(scanbackPages.scanId, scanId)).orderBy(asc(scanbackPages.scanIndex));
}

/** Every note page matched exactly once, the cover unreadable, one row per scan page. */
async function expectEachPageOnce(scanId: string, noteId: string) {
  const rows = await pageRows(scanId);
  expect(rows.map((r) => r.scanIndex)).toEqual(Array.from({ length: NOTE_PAGES + 1 }, (_, i) => i));
  expect(rows[0]).toMatchObject({ outcome: "unreadable", sourcePage: 1 });
  const matched = rows.filter((r) => r.outcome === "matched");
  expect(matched.map((r) => r.documentId)).toEqual(Array(NOTE_PAGES).fill(noteId));
  expect(matched.map((r) => r.pageNumber).sort((a, b) => a! - b!)).toEqual(Array.from({ length: NOTE_PAGES }, (_, i) => i + 1));
}

describe("a large scan read in chunks", () => {
  it("is stored and queued by the upload; a chunk killed halfway resumes at its first missing page; each page is read and matched exactly once", async () => {
    const { pkg, note, scan } = await scannedPackage("Chunks");
    const upload = await uploadScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id, files: [{ name: "scan.pdf", bytes: scan }] });
    expect(upload.scan).toMatchObject({ status: "queued", totalPages: NOTE_PAGES + 1, processedPages: 0 });
    // Nothing read within the request: the report has no page of this upload yet.
    expect(upload.report.pages.filter((p) => p.uploadId === upload.uploadId)).toEqual([]);
    const [job] = await testDb.db.select().from(jobs).where(eq(jobs.name, "process-scanback-scan"));
    expect(job).toMatchObject({ status: "queued", payload: { scanId: upload.scan.id }, fairnessKey: String(world.austin.organizationId) });

    // The local runner's first run reads chunk 1 only, and enqueues the run for chunk 2.
    const registry = createJobRegistry([processScanbackScanJob]);
    expect(await runDueJobs(testDb.db, { workerId: "test", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect((await pageRows(upload.scan.id)).map((r) => r.scanIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Chunk 2 is killed after its fourth page (scan indexes 10–13 stored).
    const firstRun: number[] = [];
    await expect(
      processScanChunk(testDb.db, upload.scan.id, 1, {
        afterPage: (index) => {
          firstRun.push(index);
          if (index === 13) throw new Error("instance killed");
        },
      }),
    ).rejects.toThrow("instance killed");
    expect(firstRun).toEqual([10, 11, 12, 13]);
    const beforeResume = await pageRows(upload.scan.id);
    expect(beforeResume).toHaveLength(14);
    const status = await getScanbackScan(testDb.db, { principal: pkg.manager, packageId: pkg.id, scanId: upload.scan.id });
    expect(status.scan).toMatchObject({ status: "processing", processedPages: 14, totalPages: 26 });

    // Run again: chunk 2 reads only the six pages it had not stored.
    const secondRun: number[] = [];
    expect(await processScanChunk(testDb.db, upload.scan.id, 1, { afterPage: (index) => void secondRun.push(index) })).toEqual({ read: 6, skipped: 4 });
    expect(secondRun).toEqual([14, 15, 16, 17, 18, 19]);
    // And chunk 1 again reads nothing.
    expect(await processScanChunk(testDb.db, upload.scan.id, 0)).toEqual({ read: 0, skipped: 10 });

    // The local runner finishes the scan: the run for chunk 2 finds it complete, reads chunk 3 and closes the scan.
    for (let pass = 0; pass < 5; pass++) {
      await testDb.db.update(jobs).set({ runAt: new Date(0) }).where(eq(jobs.status, "queued"));
      const result = await runDueJobs(testDb.db, { workerId: "test", registry });
      if (result.claimed === 0) break;
    }
    await expectEachPageOnce(upload.scan.id, note.id);
    // The pages stored before the crash are the same rows: nothing was read twice.
    const after = await pageRows(upload.scan.id);
    expect(after.slice(0, 14).map((r) => r.id)).toEqual(beforeResume.map((r) => r.id));

    const done = await getScanbackScan(testDb.db, { principal: pkg.manager, packageId: pkg.id, scanId: upload.scan.id });
    expect(done.scan).toMatchObject({ status: "done", processedPages: 26, error: null });
    expect(done.report.documents).toEqual([expect.objectContaining({ name: "Note.pdf", ready: true, missingPages: [] })]);
    const audit = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "scanback.uploaded")));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ scanId: upload.scan.id, pages: 26, matched: 25, unreadable: 1, otherPackage: 0 });
    // Each local run read at most one chunk: the job enqueued its successor per chunk.
    const runs = await testDb.db.select({ key: jobs.idempotencyKey, status: jobs.status }).from(jobs).where(eq(jobs.name, "process-scanback-scan"));
    expect(runs.map((r) => r.key).sort()).toEqual([upload.scan.id, `${upload.scan.id}:chunk-2`].sort());
    expect(runs.every((r) => r.status === "succeeded")).toBe(true);
  }, 120_000);

  it("under Inngest every chunk is a step: a retried run replays the chunks already done and reads only the rest", async () => {
    const { pkg, note, scan } = await scannedPackage("Steps");
    const upload = await uploadScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id, files: [{ name: "scan.pdf", bytes: scan }] });
    const [job] = await testDb.db.select().from(jobs).where(eq(jobs.name, "process-scanback-scan"));
    const client = createInngestClient(parseEnv({ ...process.env, INNGEST_DEV: "1" }));
    const fn = createJobFunction(client, processScanbackScanJob);
    expect(fn.opts).toMatchObject({ id: "job-process-scanback-scan", concurrency: [{ key: "event.data.fairnessKey", limit: 1 }] });
    const events = [{ name: "jobs/process-scanback-scan", data: { jobId: job!.id, fairnessKey: String(world.austin.organizationId) } }] as [{ name: string; data: Record<string, unknown> }];

    // The first run got through chunk 1 and was killed in chunk 2 (four pages stored).
    const chunk1 = await processScanChunk(testDb.db, upload.scan.id, 0);
    await processScanChunk(testDb.db, upload.scan.id, 1, { afterPage: (i) => { if (i === 13) throw new Error("killed"); } }).catch(() => {});
    const before = await pageRows(upload.scan.id);

    // Inngest retries the run with `plan` and `chunk-1` memoized.
    const plan = { chunks: 3, organizationId: world.austin.organizationId };
    const retry = await new InngestTestEngine({
      function: fn,
      events,
      steps: [
        { id: "plan", handler: () => plan },
        { id: "chunk-1", handler: () => chunk1 },
      ],
    }).execute();
    expect(retry.error).toBeUndefined();
    const ran = (retry.ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => c[0]);
    expect(ran).toEqual(["plan", "chunk-1", "chunk-2", "chunk-3", "finish"]);
    // chunk-2 read its six missing pages and chunk-3 its six; the step results are memoizable data.
    expect(await retry.state[createHash("sha1").update("chunk-2").digest("hex")]).toEqual({ read: 6, skipped: 4 });
    expect(await retry.state[createHash("sha1").update("chunk-3").digest("hex")]).toEqual({ read: 6, skipped: 0 });
    await expectEachPageOnce(upload.scan.id, note.id);
    expect((await pageRows(upload.scan.id)).slice(0, 14).map((r) => r.id)).toEqual(before.map((r) => r.id));
    const [row] = await testDb.db.select().from(scanbackScans).where(eq(scanbackScans.id, upload.scan.id));
    expect(row).toMatchObject({ status: "done", processedPages: 26 });
  }, 120_000);

  it("a scan of at most 10 pages is read within the upload and answered done", async () => {
    const { pkg } = await scannedPackage("Inline");
    const packet = await getTablePacket(testDb.db, { principal: pkg.manager, packageId: pkg.id });
    const pngs = await printToPngs(packet.content, dir, `inline${pkg.n}`, 100);
    const upload = await uploadScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id, files: pngs.slice(1, 4).map((f, i) => ({ name: `p${i + 1}.png`, bytes: readFileSync(f) })) });
    expect(upload.scan).toMatchObject({ status: "done", totalPages: 3, processedPages: 3 });
    expect(upload.report.pages.filter((p) => p.uploadId === upload.uploadId).map((p) => [p.status, p.pageNumber])).toEqual([
      ["matched", 1],
      ["matched", 2],
      ["matched", 3],
    ]);
    // Its job is only the safety net for a request killed halfway: when it runs, nothing is left to do.
    const [job] = await testDb.db.select().from(jobs).where(eq(jobs.name, "process-scanback-scan"));
    expect(job!.runAt.getTime()).toBeGreaterThan(Date.now() + 60_000);
    await testDb.db.update(jobs).set({ runAt: new Date(0) });
    expect(await runDueJobs(testDb.db, { workerId: "test", registry: createJobRegistry([processScanbackScanJob]) })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await pageRows(upload.scan.id)).toHaveLength(3);
  }, 120_000);
});

describe("claiming jobs fairly across organizations", () => {
  const ran: string[] = [];
  const fairJob = defineJob({
    name: "test-fair-work",
    schema: z.object({ owner: z.string(), n: z.number() }),
    perKeyConcurrency: 1,
    handler: async (_ctx, payload) => void ran.push(`${payload.owner}${payload.n}`),
  });
  const registry = createJobRegistry([fairJob]);

  it("claims another organization's due job before more of one whose job is running, oldest first otherwise", async () => {
    ran.length = 0;
    const old = new Date(Date.now() - 60_000);
    // Organization A: one job running (a long scan's chunk, a hostile page within its budget) and three waiting, all older than B's.
    await enqueueJob(testDb.db, fairJob, { owner: "A", n: 0 }, { fairnessKey: "org-a", runAt: old });
    await testDb.db.update(jobs).set({ status: "running", lockedBy: "another-instance", lockedUntil: new Date(Date.now() + 60_000) });
    for (const n of [1, 2, 3]) await enqueueJob(testDb.db, fairJob, { owner: "A", n }, { fairnessKey: "org-a", runAt: new Date(old.getTime() + n) });
    await enqueueJob(testDb.db, fairJob, { owner: "B", n: 1 }, { fairnessKey: "org-b" });

    // One claim at a time, as a busy instance would: B's one-page scan goes first, then A's in order.
    for (let i = 0; i < 4; i++) await runDueJobs(testDb.db, { workerId: "w", registry, limit: 1 });
    expect(ran).toEqual(["B1", "A1", "A2", "A3"]);
  });
});
