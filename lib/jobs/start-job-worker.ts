import { getDb } from "@/db/client";
import { getEnv, isInngestConfigured } from "@/lib/env";
import { scheduleExpireSignings } from "@/lib/signings/expire-signings-job";
import { dispatchQueuedJobs } from "./dispatch-queued-jobs";
import { newWorkerId, startJobPolling, startPollingLoop } from "./start-job-polling";

const DISPATCH_BATCH = 50;

/**
 * How often the local scheduler ticks. Each tick enqueues the current five-minute bucket's
 * `expire-signings` job; ticking more often than the bucket length means a slow tick or timer drift
 * never skips a bucket, and the bucket key keeps it to one job per bucket across all processes.
 */
const SCHEDULE_TICK_MS = 60_000;

/**
 * Starts this process's share of the job system. Local engine: the database-backed runner (claims
 * are exclusive, so every app process may run one) and the scheduler that enqueues the periodic
 * signing expiry sweep. Inngest: the outbox relay that forwards committed jobs to Inngest (Inngest
 * cron functions do the same and schedule the sweep, for deployments without a long-running
 * process). Resolves to a stop function that waits for the passes in flight.
 */
export async function startJobWorker(): Promise<() => Promise<void>> {
  const env = getEnv();
  const db = await getDb();
  if (!isInngestConfigured(env)) {
    const stopPolling = startJobPolling(db, { intervalMs: env.JOBS_POLL_INTERVAL_MS });
    const stopScheduler = startPollingLoop({ name: "job scheduler", workerId: newWorkerId(), intervalMs: SCHEDULE_TICK_MS }, async () => {
      await scheduleExpireSignings(db);
      return false;
    });
    return async () => {
      await Promise.all([stopPolling(), stopScheduler()]);
    };
  }
  const { getInngest } = await import("@/inngest/client");
  const sender = getInngest();
  return startPollingLoop({ name: "job outbox relay", workerId: newWorkerId(), intervalMs: env.JOBS_POLL_INTERVAL_MS }, async () => {
    const sent = await dispatchQueuedJobs(db, { sender, limit: DISPATCH_BATCH });
    return sent >= DISPATCH_BATCH;
  });
}
