import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, type Job } from "@/db/schema/jobs";
import { errorDetails } from "@/lib/errors";
import { log } from "@/lib/log";
import { jobEventId, jobEventName } from "./job-event";
import type { JobRegistry } from "./create-job-registry";

/** What a job's event carries: the row's id, never its payload (rendered emails, links, codes stay in the database). */
export type JobEventData = { jobId: string; fairnessKey?: string };
type JobEvent = { name: string; data: JobEventData; id: string; ts?: number };

/** The Inngest client's `send`, narrowed to what dispatching needs (tests pass a fake). */
export type JobEventSender = { send: (events: JobEvent[]) => Promise<unknown> };

/** The event for one job row: `jobs/<name>`, deduplicated by Inngest under the idempotency key (or the row id). */
export function jobEvent(row: Job, now = Date.now()): JobEvent {
  return {
    name: jobEventName(row.name),
    id: jobEventId(row.name, row.idempotencyKey ?? row.id),
    // The fairness key is an organization's id, never personal data: Inngest's per-key concurrency reads it.
    data: { jobId: row.id, ...(row.fairnessKey ? { fairnessKey: row.fairnessKey } : {}) },
    // A future `ts` makes Inngest start the run at that time.
    ...(row.runAt.getTime() > now ? { ts: row.runAt.getTime() } : {}),
  };
}

/**
 * Sends one committed `queued` job as its event and marks it `dispatched`, in its own transaction
 * holding the row (`FOR UPDATE SKIP LOCKED`: a concurrent relay skips it). False when the row is not
 * (or no longer) queued, or not yet visible (its transaction has not committed). If the send fails
 * the transaction rolls back and the row waits; if the send succeeds but the commit fails, the next
 * pass sends it again under the same event id, which Inngest deduplicates.
 */
export async function dispatchQueuedJob(db: Db, id: string, sender: JobEventSender): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, id), eq(jobs.status, "queued")))
      .for("update", { skipLocked: true });
    if (!row) return false;
    await sender.send([jobEvent(row)]);
    await tx.update(jobs).set({ status: "dispatched", finishedAt: new Date(), lastError: null }).where(eq(jobs.id, row.id));
    return true;
  });
}

/**
 * The outbox relay for Inngest: sends committed `queued` jobs (oldest first, at most `limit`, only
 * names in `registry`, or only `ids` when given) as `jobs/<name>` events, each on its own: one event
 * the server refuses is logged and recorded on its row (`last_error`) and never holds back the jobs
 * behind it. Returns how many jobs were sent.
 */
export async function dispatchQueuedJobs(
  db: Db,
  options: { sender: JobEventSender; registry: JobRegistry; limit?: number; ids?: string[] },
): Promise<number> {
  const names = [...options.registry.keys()];
  if (names.length === 0 || options.ids?.length === 0) return 0;
  const candidates = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, "queued"), inArray(jobs.name, names), options.ids ? inArray(jobs.id, options.ids) : undefined))
    .orderBy(asc(jobs.createdAt))
    .limit(options.limit ?? 50);
  let sent = 0;
  for (const { id } of candidates) {
    try {
      if (await dispatchQueuedJob(db, id, options.sender)) sent++;
    } catch (error) {
      log.warn("job event not accepted; the job stays queued for the next pass", { jobId: id, error });
      const { message } = errorDetails(error);
      await db
        .update(jobs)
        .set({ lastError: `event not accepted: ${message.slice(0, 500)}` })
        .where(and(eq(jobs.id, id), eq(jobs.status, "queued")))
        .catch(() => {});
    }
  }
  return sent;
}
