import { eq } from "drizzle-orm";
import { z } from "zod";
import { scanbackScans } from "@/db/schema";
import { defineJob } from "@/lib/jobs/define-job";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { failScan, finishScan, processScanChunk, scanChunkCount } from "./scanback-scan";

export const PROCESS_SCANBACK_SCAN_JOB = "process-scanback-scan";

/**
 * What the closing pages and /v1 show for a scan whose job gave up (every attempt failed for a reason
 * that is not the file's: the database, storage, the renderer). The cause goes to the logs, not to the
 * reader; the files stay stored, and uploading them again starts a new scan.
 */
export const SCAN_GAVE_UP_MESSAGE = "This scan could not be read: the server failed on every try, so none of its pages were kept. Upload the scan again.";

/**
 * Reads a stored scanback scan chunk by chunk (`processScanChunk`), then closes it (`finishScan`).
 *
 * Under Inngest every chunk is a step (`chunk-1`, `chunk-2`, …): each runs in its own request, a
 * chunk that succeeded is never run again, and a request frozen or killed mid-chunk is retried from
 * that chunk, whose stored pages are skipped. Under the local runner a run reads one chunk that had
 * pages left and enqueues the next run (keyed by the scan and the chunk), so no run holds a worker
 * for a whole 200-page scan either; chunks already complete cost one query each.
 *
 * Fair per organization (`perKeyConcurrency`, keyed by the organization): one of its scans is read
 * at a time on Inngest, and the local runner claims another organization's due scan first.
 *
 * When a run fails for good (its last attempt, on either engine), the scan is marked failed with
 * `SCAN_GAVE_UP_MESSAGE` instead of staying "processing" forever; a scan already failed with a more
 * precise reason (a page refused for its content) keeps that reason.
 */
export const processScanbackScanJob = defineJob({
  name: PROCESS_SCANBACK_SCAN_JOB,
  schema: z.object({ scanId: z.uuid() }),
  maxAttempts: 8,
  perKeyConcurrency: 1,
  handler: async (ctx, { scanId }) => {
    const plan = await ctx.step("plan", async () => {
      const [scan] = await ctx.db.select().from(scanbackScans).where(eq(scanbackScans.id, scanId));
      if (!scan || scan.status === "done" || scan.status === "failed") return null;
      return { chunks: scanChunkCount(scan.totalPages, scan.chunkSize), organizationId: scan.organizationId };
    });
    if (!plan) return;
    for (let chunk = 0; chunk < plan.chunks; chunk++) {
      const result = await ctx.step(`chunk-${chunk + 1}`, () => processScanChunk(ctx.db, scanId, chunk));
      if (ctx.engine === "local" && result.read > 0 && chunk + 1 < plan.chunks) {
        await enqueueJob(ctx.db, processScanbackScanJob, { scanId }, { idempotencyKey: `${scanId}:chunk-${chunk + 2}`, fairnessKey: String(plan.organizationId) });
        return;
      }
    }
    const done = await ctx.step("finish", async () => (await finishScan(ctx.db, scanId))?.status ?? null);
    ctx.logger.info("scanback scan read", { scanId, status: done });
  },
  onFinalFailure: async (ctx, { scanId }, failure) => {
    ctx.logger.error("scanback scan job gave up", { scanId, error: failure.error, attempts: failure.attempts });
    await failScan(ctx.db, scanId, SCAN_GAVE_UP_MESSAGE);
  },
});
