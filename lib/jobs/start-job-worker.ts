import { getDb } from "@/db/client";
import { getEnv, isInngestConfigured } from "@/lib/env";
import { dispatchQueuedJobs } from "./dispatch-queued-jobs";
import { newWorkerId, startJobPolling, startPollingLoop } from "./start-job-polling";

const DISPATCH_BATCH = 50;

/**
 * Starts this process's share of the job system. Local engine: the database-backed runner (claims
 * are exclusive, so every app process may run one). Inngest: the outbox relay that forwards committed
 * jobs to Inngest (an Inngest cron function does the same, for deployments without a long-running
 * process). Resolves to a stop function that waits for the pass in flight.
 */
export async function startJobWorker(): Promise<() => Promise<void>> {
  const env = getEnv();
  const db = await getDb();
  if (!isInngestConfigured(env)) return startJobPolling(db, { intervalMs: env.JOBS_POLL_INTERVAL_MS });
  const { getInngest } = await import("@/inngest/client");
  const sender = getInngest();
  return startPollingLoop({ name: "job outbox relay", workerId: newWorkerId(), intervalMs: env.JOBS_POLL_INTERVAL_MS }, async () => {
    const sent = await dispatchQueuedJobs(db, { sender, limit: DISPATCH_BATCH });
    return sent >= DISPATCH_BATCH;
  });
}
