import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { sweepExpiredUploads } from "./sweep-expired-uploads";

export const SWEEP_EXPIRED_UPLOADS_JOB = "sweep-expired-uploads";

const BATCH = 100;
/** Bounds one run; whatever is left waits for the next scheduled run. */
const MAX_BATCHES = 20;

/** Deletes expired, never-attached uploads and their unreferenced objects, hourly on either engine. */
export const sweepExpiredUploadsJob = defineJob({
  name: SWEEP_EXPIRED_UPLOADS_JOB,
  schema: z.object({}),
  maxAttempts: 3,
  schedule: "17 * * * *",
  handler: async (ctx) => {
    const deleted = await ctx.step("sweep", async () => {
      let count = 0;
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        const n = await sweepExpiredUploads(ctx.db, { limit: BATCH });
        count += n;
        if (n < BATCH) break;
      }
      return count;
    });
    ctx.logger.info("upload sweep finished", { deleted });
  },
});
