import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { expireSignings } from "./expire-signings";

export const EXPIRE_SIGNINGS_JOB = "expire-signings";

const BATCH = 100;
/** Bounds one run; whatever is left waits for the next scheduled run. */
const MAX_BATCHES = 20;

/**
 * Runs the expiry sweep until a batch comes back short, every five minutes on either engine. Safe
 * to repeat or run concurrently: each package is expired once (see `expireSignings`).
 */
export const expireSigningsJob = defineJob({
  name: EXPIRE_SIGNINGS_JOB,
  schema: z.object({}),
  maxAttempts: 3,
  schedule: "*/5 * * * *",
  handler: async (ctx) => {
    const expired = await ctx.step("expire", async () => {
      let count = 0;
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        const ids = await expireSignings(ctx.db, { limit: BATCH });
        count += ids.length;
        if (ids.length < BATCH) break;
      }
      return count;
    });
    ctx.logger.info("signing expiry sweep finished", { expired });
  },
});
