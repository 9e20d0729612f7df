import type { Db } from "@/db/client";
import type { JobRegistry } from "@/lib/jobs/create-job-registry";
import { isScheduledJob } from "@/lib/jobs/define-job";
import { enqueueScheduledJob } from "@/lib/jobs/enqueue-scheduled-job";
import { newWorkerId, startPollingLoop } from "./start-job-polling";

/**
 * How often the local scheduler ticks. Cron times are at least a minute apart; ticking several
 * times a minute means a slow tick or timer drift never skips one, and the idempotency key keeps
 * each cron time to one job across all ticks and processes.
 */
export const SCHEDULE_TICK_MS = 15_000;

/**
 * The local runner's scheduler: on start and then every tick, enqueues each job in `registry` that
 * has a `schedule` for its latest cron time (`enqueueScheduledJob`). Returns a stop function that
 * waits for the tick in flight. Does nothing when no job has a schedule.
 */
export function startJobScheduler(db: Db, options: { registry: JobRegistry; intervalMs?: number; workerId?: string }): () => Promise<void> {
  const scheduled = [...options.registry.values()].filter(isScheduledJob);
  if (scheduled.length === 0) return async () => {};
  const workerId = options.workerId ?? newWorkerId();
  return startPollingLoop({ name: "job scheduler", workerId, intervalMs: options.intervalMs ?? SCHEDULE_TICK_MS }, async () => {
    const now = new Date();
    // One failing job must not keep the others from being scheduled; the loop logs the first error.
    const results = await Promise.allSettled(scheduled.map((job) => enqueueScheduledJob(db, job, { now })));
    const failed = results.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    return false;
  });
}
