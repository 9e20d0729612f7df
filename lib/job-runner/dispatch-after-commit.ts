import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/process-db";
import { jobs } from "@/db/schema/jobs";
import { getInngest } from "@/lib/jobs/inngest-client";
import { getEnv, isInngestConfigured } from "@/lib/env";
import { installJobKick, trackDispatch, wakeJobRunners } from "@/lib/jobs/after-commit-hook";
import { dispatchQueuedJobs } from "@/lib/jobs/dispatch-queued-jobs";
import { jobRegistry } from "./registry";
import { runDueJobs } from "./run-due-jobs";
import { newWorkerId } from "./start-job-polling";

export { settleDispatches } from "@/lib/jobs/after-commit-hook";

/**
 * Sends a job on its way right after the request that enqueued it, instead of waiting for a timer:
 * on a serverless host an instance is frozen soon after its last answer, so a poll may never come.
 *
 * In a Next request the work is handed to `after()`, which runs once the response has been sent (the
 * request's transaction has committed by then) and keeps the function alive until it finishes.
 * Elsewhere (the standalone API, a job handler) it runs on the next turn of the event loop and looks
 * again a little later while the row is not visible (its transaction is still open). Only a committed
 * row is ever sent; a rolled-back one never appears, and anything missed is picked up by the resident
 * relay or Inngest's minute cron.
 *
 * With Inngest the job's event is sent (`dispatchQueuedJobs` with this row's id); with the local
 * runner a resident worker is woken, or, on a host without one, a runner pass runs here.
 */

/** True when the job went on its way (or someone else sent it); false while its row is not visible yet. */
async function kick(jobId: string): Promise<boolean> {
  const db = await getDb();
  if (isInngestConfigured(getEnv())) {
    if ((await dispatchQueuedJobs(db, { sender: getInngest(), registry: jobRegistry, ids: [jobId] })) > 0) return true;
    // Not sent: someone else sent it (its row is visible and no longer queued), or the enqueuing
    // transaction has not committed yet (not visible), or its send failed (still queued: the relay retries).
    const [row] = await db.select({ status: jobs.status }).from(jobs).where(and(eq(jobs.id, jobId)));
    return row !== undefined;
  }
  if (wakeJobRunners()) return true;
  return (await runDueJobs(db, { workerId: newWorkerId(), limit: 5, registry: jobRegistry })).claimed > 0;
}

// Outside a request scope the enqueuing transaction may still be open: look again a little later.
const RETRY_DELAYS_MS = [0, 50, 250, 1000];

async function kickUntilVisible(jobId: string): Promise<void> {
  for (const delay of RETRY_DELAYS_MS) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (await kick(jobId)) return;
  }
}

/**
 * Turns dispatch-after-commit on for this process (instrumentation.ts for Next, the standalone API's
 * start script). `useAfter`: this process is a Next server, whose requests run in Next's request
 * scope where `after()` exists. `enabled: false` turns it off again (tests).
 */
export function enableDispatchAfterCommit(options: { enabled?: boolean; useAfter: boolean }): void {
  if (options.enabled === false) {
    installJobKick(undefined);
    return;
  }
  installJobKick((jobId) => {
    void (async () => {
      if (options.useAfter) {
        try {
          const { after } = await import("next/server");
          after(() => trackDispatch(async () => void (await kick(jobId))));
          return;
        } catch {
          // Outside a request scope (a job handler, start-up work): below.
        }
      }
      void trackDispatch(() => kickUntilVisible(jobId));
    })();
  });
}
