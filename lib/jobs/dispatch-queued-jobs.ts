import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs } from "@/db/schema/jobs";
import { jobEventId, jobEventName } from "./job-event";
import type { JobRegistry } from "./create-job-registry";

type JobEvent = { name: string; data: Record<string, unknown>; id: string; ts?: number };

/** The Inngest client's `send`, narrowed to what dispatching needs (tests pass a fake). */
export type JobEventSender = { send: (events: JobEvent[]) => Promise<unknown> };

/**
 * The outbox relay for Inngest: sends committed `queued` jobs as `jobs/<name>` events and marks them
 * `dispatched`, in one transaction holding the rows (`FOR UPDATE SKIP LOCKED`, so concurrent relays
 * take disjoint rows). If the send fails, the transaction rolls back and the rows wait for the next
 * pass. If the send succeeds but the commit fails, the next pass sends them again under the same
 * event ids, which Inngest deduplicates. Only jobs in `registry` are sent (the caller passes the
 * application's registry; this module does not import it). Returns how many jobs were sent.
 */
export async function dispatchQueuedJobs(
  db: Db,
  options: { sender: JobEventSender; registry: JobRegistry; limit?: number },
): Promise<number> {
  const names = [...options.registry.keys()];
  if (names.length === 0) return 0;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.status, "queued"), inArray(jobs.name, names)))
      .orderBy(asc(jobs.createdAt))
      .limit(options.limit ?? 50)
      .for("update", { skipLocked: true });
    if (rows.length === 0) return 0;
    const now = Date.now();
    await options.sender.send(
      rows.map((row) => ({
        name: jobEventName(row.name),
        id: jobEventId(row.name, row.idempotencyKey ?? row.id),
        data: row.payload as Record<string, unknown>,
        // A future `ts` makes Inngest start the run at that time.
        ...(row.runAt.getTime() > now ? { ts: row.runAt.getTime() } : {}),
      })),
    );
    await tx
      .update(jobs)
      .set({ status: "dispatched", finishedAt: sql`now()` })
      .where(inArray(jobs.id, rows.map((row) => row.id)));
    return rows.length;
  });
}
