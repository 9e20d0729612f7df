import { getDb } from "@/db/client";
import { getEnv, isInngestConfigured } from "@/lib/env";
import { log } from "@/lib/log";
import { startJobPolling } from "./start-job-polling";

/**
 * Starts the local database-backed runner for this process, unless Inngest is configured (then
 * Inngest calls `/api/inngest` and nothing polls). Every app process may run one: claims are
 * exclusive, so several workers on one PostgreSQL share the queue. Resolves to a stop function
 * that waits for the batch in flight.
 */
export async function startJobWorker(): Promise<() => Promise<void>> {
  const env = getEnv();
  if (isInngestConfigured(env)) {
    log.info("jobs run on Inngest; local job worker not started");
    return async () => {};
  }
  const db = await getDb();
  return startJobPolling(db, { intervalMs: env.JOBS_POLL_INTERVAL_MS });
}
