import { eq } from "drizzle-orm";
import { z } from "zod";
import { packageSeals } from "@/db/schema";
import { errorDetails } from "@/lib/errors";
import { defineJob } from "@/lib/jobs/define-job";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { recordSealFailure } from "./record-seal-failure";
import { TIMESTAMP_UNAVAILABLE } from "./request-timestamp";
import { REVOCATION_UNAVAILABLE } from "./revocation-data";
import { sealPackage } from "./seal-package";

export const SEAL_PACKAGE_JOB = "seal-package";

/** Failures that are the outside world's, not the package's: the seal waits for them past its last attempt. */
const WAITS_FOR_SERVICE = new Set([TIMESTAMP_UNAVAILABLE, REVOCATION_UNAVAILABLE]);

/** How long a seal waits for the time-stamp authority (or a revocation service) between jobs once a job has used up its attempts. */
export const TIMESTAMP_WAIT_MS = 15 * 60_000;

/**
 * Seals a completed package (`sealPackage`). Enqueued in the transaction that completes the package,
 * keyed by the package id. A failed attempt marks the seal `failed` (visible to managers) and is
 * retried with the runner's backoff; `sealPackage` is safe to repeat.
 *
 * A time-stamp authority (or a revocation service the seal's certificates name) that is down delays the seal, never drops it: when the last attempt fails
 * for want of a timestamp, the job enqueues its successor to run `TIMESTAMP_WAIT_MS` later (keyed by
 * the seal's attempt count, so one successor per failure), and so on until the authority answers.
 */
export const sealPackageJob = defineJob({
  name: SEAL_PACKAGE_JOB,
  schema: z.object({ packageId: z.uuid() }),
  maxAttempts: 12,
  handler: async (ctx, payload) => {
    try {
      const result = await ctx.step("seal", () => sealPackage(ctx.db, { packageId: payload.packageId }));
      ctx.logger.info("package sealed", { packageId: payload.packageId, ...result });
    } catch (error) {
      const { name, message } = errorDetails(error);
      await recordSealFailure(ctx.db, { packageId: payload.packageId, error: `${name}: ${message}` });
      // By name: under Inngest a failed step's error comes back deserialized, not as the class.
      if (WAITS_FOR_SERVICE.has(name) && ctx.attempt >= sealPackageJob.maxAttempts) {
        const [seal] = await ctx.db.select({ attempts: packageSeals.attempts }).from(packageSeals).where(eq(packageSeals.packageId, payload.packageId));
        await enqueueJob(
          ctx.db,
          sealPackageJob,
          { packageId: payload.packageId },
          { idempotencyKey: `seal:${payload.packageId}:tsa-wait:${seal?.attempts ?? 0}`, runAt: new Date(Date.now() + TIMESTAMP_WAIT_MS) },
        );
        ctx.logger.warn("seal waits for the time-stamp authority or a revocation service", { packageId: payload.packageId, retryInMs: TIMESTAMP_WAIT_MS });
      }
      throw error;
    }
  },
});
