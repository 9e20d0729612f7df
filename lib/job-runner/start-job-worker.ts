import { getDb } from "@/lib/db/process-db";
import { getEnv, isInngestConfigured, isServerless } from "@/lib/env";
import { log } from "@/lib/log";
import { dispatchQueuedJobs } from "@/lib/jobs/dispatch-queued-jobs";
import { jobRegistry } from "./registry";
import { newWorkerId, startJobPolling, startPollingLoop } from "./start-job-polling";
import { startJobScheduler } from "./start-job-scheduler";

const DISPATCH_BATCH = 50;

/**
 * Starts this process's share of the job system. Local engine: the database-backed runner (claims
 * are exclusive, so every app process may run one) and the scheduler that enqueues every job with a
 * `schedule`. Inngest: the outbox relay that forwards committed jobs to Inngest (Inngest cron
 * functions do the same and enqueue the scheduled jobs, for deployments without a long-running
 * process). Resolves to a stop function that waits for the passes in flight.
 *
 * A serverless function starts no timer at all (it is frozen between requests): jobs leave right
 * after the request that enqueued them (`dispatchAfterCommit`), and Inngest's minute cron is the safety net.
 */
export async function startJobWorker(): Promise<() => Promise<void>> {
  const env = getEnv();
  if (isServerless(env)) {
    log.info("serverless host: no job timers in this process");
    return async () => {};
  }
  const db = await getDb();
  if (!isInngestConfigured(env)) {
    const stopPolling = startJobPolling(db, { intervalMs: env.JOBS_POLL_INTERVAL_MS, registry: jobRegistry });
    const stopScheduler = startJobScheduler(db, { registry: jobRegistry });
    return async () => {
      await Promise.all([stopPolling(), stopScheduler()]);
    };
  }
  const { getInngest } = await import("@/lib/jobs/inngest-client");
  const sender = getInngest();
  return startPollingLoop({ name: "job outbox relay", workerId: newWorkerId(), intervalMs: env.JOBS_POLL_INTERVAL_MS }, async () => {
    const sent = await dispatchQueuedJobs(db, { sender, registry: jobRegistry, limit: DISPATCH_BATCH });
    return sent >= DISPATCH_BATCH;
  });
}
