// Scans that end badly end visibly: a scan whose job gave up is failed with a message the closing page
// shows (never "processing" forever), and an organization's hostile PDF is refused naming its page
// while another organization's one-page scan is matched meanwhile.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fileObjects, scanbackPages, scanbackScanFiles } from "@/db/schema";
import { jobs } from "@/db/schema/jobs";
import { createJobFunction } from "@/inngest/functions";
import { buildScanPdf } from "@/lib/closings/attach-document-scan";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { processScanbackScanJob } from "@/lib/closings/process-scanback-scan-job";
import { getScanbackScan, listActiveScanbackScans, uploadScanback } from "@/lib/closings/scanback";
import { parseEnv } from "@/lib/env";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { createInngestClient } from "@/lib/jobs/inngest-client";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { readObject } from "@/lib/storage/objects";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { printToPngs, sentInkPackage, type SentInkPackage } from "../helpers/ink-package";
import { fullPageFillsPdf } from "../helpers/slow-pdf";

const dir = mkdtempSync(join(tmpdir(), "scanback-failures-"));

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

/** The note pages of a package's table packet, printed with poppler and scanned as a scanner writes them (one JPEG a page). */
async function scannedNote(pkg: SentInkPackage, name: string): Promise<Uint8Array> {
  const packet = await getTablePacket(testDb.db, { principal: pkg.manager, packageId: pkg.id });
  const pngs = (await printToPngs(packet.content, dir, name, 150)).slice(1); // without the cover
  const jpegs = await Promise.all(pngs.map(async (f) => ({ bytes: new Uint8Array(await sharp(readFileSync(f)).jpeg({ quality: 80 }).toBuffer()), contentType: "image/jpeg" as const })));
  return buildScanPdf(jpegs);
}

describe("a scan whose job fails on every attempt", () => {
  it("ends failed with a message the closing page and the API show; its stored files stay", async () => {
    const pkg = await sentInkPackage(testDb.db, world, { label: "GaveUp", documents: [{ name: "Note.pdf", pages: 2, executionMode: "wet_sign" }] });
    // Read in the background (no page within the request), as a large scan is.
    const upload = await uploadScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id, files: [{ name: "scan.pdf", bytes: await scannedNote(pkg, `gave${pkg.n}`) }], inlinePages: 0 });
    expect(upload.scan).toMatchObject({ status: "queued", totalPages: 2 });

    // Storage cannot give the file back (an outage that outlasts every retry): each attempt fails.
    const [file] = await testDb.db.select().from(scanbackScanFiles).where(eq(scanbackScanFiles.scanId, upload.scan.id));
    await testDb.db.update(fileObjects).set({ key: `${file!.storageKey}.away` }).where(eq(fileObjects.key, file!.storageKey));

    const registry = createJobRegistry([processScanbackScanJob]);
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      await testDb.db.update(jobs).set({ runAt: new Date(0) }).where(eq(jobs.status, "queued"));
      const result = await runDueJobs(testDb.db, { workerId: "test", registry });
      if (result.claimed === 0) break;
      outcomes.push(result.failed ? "failed" : result.retried ? "retried" : "succeeded");
      if (result.retried) {
        // Between attempts the scan is still being read, as far as anyone can tell.
        const between = await getScanbackScan(testDb.db, { principal: pkg.manager, packageId: pkg.id, scanId: upload.scan.id });
        expect(between.scan.status).toMatch(/^(queued|processing)$/);
      }
    }
    expect(outcomes).toEqual([...Array(7).fill("retried"), "failed"]);
    const [job] = await testDb.db.select().from(jobs).where(eq(jobs.name, "process-scanback-scan"));
    expect(job).toMatchObject({ status: "failed", attempts: 8 });

    // The API's scan and the closing page's list both say it failed, and why in the reader's words.
    const status = await getScanbackScan(testDb.db, { principal: pkg.manager, packageId: pkg.id, scanId: upload.scan.id });
    expect(status.scan).toMatchObject({ status: "failed", processedPages: 0, error: expect.stringContaining("Upload the scan again") });
    expect(status.scan.error).not.toContain(file!.storageKey);
    expect(status.scan.finishedAt).toBeInstanceOf(Date);
    const listed = await listActiveScanbackScans(testDb.db, { principal: pkg.manager, packageId: pkg.id });
    expect(listed.find((s) => s.id === upload.scan.id)).toMatchObject({ status: "failed", error: status.scan.error });
    expect(await testDb.db.select().from(scanbackPages).where(eq(scanbackPages.scanId, upload.scan.id))).toEqual([]);

    // Once storage is back the file is there as uploaded, and the same file uploaded again is read.
    await testDb.db.update(fileObjects).set({ key: file!.storageKey }).where(eq(fileObjects.key, `${file!.storageKey}.away`));
    const kept = await readObject(testDb.db, file!.storageKey);
    const again = await uploadScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id, files: [{ name: "scan.pdf", bytes: kept }] });
    expect(again.scan).toMatchObject({ status: "done", processedPages: 2 });
    expect(again.report.pages.filter((p) => p.uploadId === again.uploadId).map((p) => [p.status, p.pageNumber])).toEqual([
      ["matched", 1],
      ["matched", 2],
    ]);
  }, 120_000);

  it("under Inngest, the function's failure handler fails the scan the same way", async () => {
    const pkg = await sentInkPackage(testDb.db, world, { label: "GaveUpInngest", documents: [{ name: "Note.pdf", pages: 1, executionMode: "wet_sign" }] });
    const upload = await uploadScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id, files: [{ name: "scan.pdf", bytes: await scannedNote(pkg, `gavei${pkg.n}`) }], inlinePages: 0 });
    const [job] = await testDb.db.select().from(jobs).where(eq(jobs.name, "process-scanback-scan"));
    const fn = createJobFunction(createInngestClient(parseEnv({ ...process.env, INNGEST_DEV: "1" })), processScanbackScanJob);
    const onFailure = (fn.opts as { onFailure?: (args: unknown) => Promise<void> }).onFailure;
    expect(onFailure).toBeTypeOf("function");
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    // What Inngest sends once the run's retries are spent: the original event inside the failure event.
    await onFailure!({
      event: { name: "inngest/function.failed", data: { function_id: "job-process-scanback-scan", run_id: "run-1", error: {}, event: { name: "jobs/process-scanback-scan", data: { jobId: job!.id } } } },
      error: new Error("storage answered 503"),
      logger: quiet,
      runId: "run-1",
    });
    const status = await getScanbackScan(testDb.db, { principal: pkg.manager, packageId: pkg.id, scanId: upload.scan.id });
    expect(status.scan).toMatchObject({ status: "failed", error: expect.stringContaining("Upload the scan again") });
    expect(status.scan.error).not.toContain("503");
  }, 120_000);
});

describe("a hostile PDF scan", () => {
  it("is refused naming its page, while another organization's one-page scan is matched meanwhile", async () => {
    const hostileOrg = await sentInkPackage(testDb.db, world, { label: "Hostile", documents: [{ name: "Note.pdf", pages: 1, executionMode: "wet_sign" }] });
    const otherOrg = await sentInkPackage(testDb.db, world, { label: "Prompt", documents: [{ name: "Note.pdf", pages: 1, executionMode: "wet_sign" }], location: world.tulsa });
    const otherScan = await scannedNote(otherOrg, `prompt${otherOrg.n}`);

    const started = Date.now();
    const hostile = uploadScanback(testDb.db, { principal: hostileOrg.manager, packageId: hostileOrg.id, files: [{ name: "hostile.pdf", bytes: await fullPageFillsPdf() }] }).then(
      () => ({ settledAt: Date.now(), error: null }),
      (error: unknown) => ({ settledAt: Date.now(), error }),
    );
    // The hostile page is in the renderer (its scan is being read) before the other organization uploads.
    for (let i = 0; i < 100; i++) {
      const [row] = await testDb.db.execute<{ status: string }>(sql`select status from scanback_scans where package_id = ${hostileOrg.id}`).then((r) => (Array.isArray(r) ? r : (r as { rows: { status: string }[] }).rows));
      if (row?.status === "processing") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const other = await uploadScanback(testDb.db, { principal: otherOrg.manager, packageId: otherOrg.id, files: [{ name: "scan.pdf", bytes: otherScan }] });
    const otherDoneAt = Date.now();
    expect(other.scan).toMatchObject({ status: "done", processedPages: 1 });
    expect(other.report.pages.filter((p) => p.uploadId === other.uploadId).map((p) => [p.status, p.pageNumber])).toEqual([["matched", 1]]);

    const outcome = await hostile;
    // The other organization's scan was matched well before the hostile page used up its 20 s budget.
    expect(otherDoneAt).toBeLessThan(outcome.settledAt - 5_000);
    expect(outcome.settledAt - started).toBeGreaterThanOrEqual(20_000);
    expect(outcome.error).toMatchObject({ status: 400, message: expect.stringContaining('Page 1 of "hostile.pdf" took longer than 20 s to render') });
    const [failed] = await listActiveScanbackScans(testDb.db, { principal: hostileOrg.manager, packageId: hostileOrg.id });
    expect(failed).toMatchObject({ status: "failed", totalPages: 1, error: expect.stringContaining('Page 1 of "hostile.pdf"') });
  }, 120_000);
});
