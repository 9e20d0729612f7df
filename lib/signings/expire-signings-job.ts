import { z } from "zod";
import type { Db } from "@/db/client";
import { defineJob } from "@/lib/jobs/define-job";
import { enqueueJob, type EnqueuedJob } from "@/lib/jobs/enqueue-job";
import { expireSignings } from "./expire-signings";

export const EXPIRE_SIGNINGS_JOB = "expire-signings";

/** How often the sweep is scheduled: once per bucket of this length, on either engine. */
export const EXPIRE_SIGNINGS_INTERVAL_MS = 5 * 60_000;

const BATCH = 100;
/** Bounds one run; whatever is left waits for the next bucket. */
const MAX_BATCHES = 20;

/**
 * Runs the expiry sweep until a batch comes back short. Safe to repeat or run concurrently: each
 * package is expired once (see `expireSignings`). Scheduled every five minutes by
 * `scheduleExpireSignings` (local runner) or the `signings-expiry-schedule` Inngest cron function.
 */
export const expireSigningsJob = defineJob({
  name: EXPIRE_SIGNINGS_JOB,
  schema: z.object({}),
  maxAttempts: 3,
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

/**
 * Enqueues the sweep for the five-minute bucket containing `now`, keyed
 * `expire-signings:<bucket start ISO>`: any number of processes (or ticks) within one bucket enqueue
 * one job between them.
 */
export async function scheduleExpireSignings(db: Db, options: { now?: Date } = {}): Promise<EnqueuedJob> {
  const now = (options.now ?? new Date()).getTime();
  const bucket = new Date(now - (now % EXPIRE_SIGNINGS_INTERVAL_MS)).toISOString();
  return enqueueJob(db, { name: EXPIRE_SIGNINGS_JOB, payload: {}, idempotencyKey: `${EXPIRE_SIGNINGS_JOB}:${bucket}` });
}
