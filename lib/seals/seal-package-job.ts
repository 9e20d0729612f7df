import { z } from "zod";
import { errorDetails } from "@/lib/errors";
import { defineJob } from "@/lib/jobs/define-job";
import { recordSealFailure } from "./record-seal-failure";
import { sealPackage } from "./seal-package";

export const SEAL_PACKAGE_JOB = "seal-package";

/**
 * Seals a completed package (`sealPackage`). Enqueued in the transaction that completes the package,
 * keyed by the package id. A failed attempt marks the seal `failed` (visible to managers) and is
 * retried with the runner's backoff; `sealPackage` is safe to repeat.
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
      throw error;
    }
  },
});
