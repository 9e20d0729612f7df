import type { Db } from "@/db/client";
import type { ScheduledJobDefinition } from "./define-job";
import { enqueueJob, type EnqueuedJob } from "./enqueue-job";
import { latestCronTime } from "./latest-cron-time";
import { parseCronExpression } from "./parse-cron-expression";

/**
 * Enqueues the run of a scheduled job for its latest cron time at or before `now`, keyed
 * `<name>:<cron time ISO>`: any number of processes or ticks between two cron times enqueue one job
 * between them, on either engine. A scheduler that was down over a cron time catches up with the
 * latest missed run only.
 */
export async function enqueueScheduledJob(
  db: Db,
  job: ScheduledJobDefinition,
  options: { now?: Date } = {},
): Promise<EnqueuedJob> {
  const due = latestCronTime(parseCronExpression(job.schedule), options.now ?? new Date());
  if (!due) throw new Error(`Job "${job.name}": schedule "${job.schedule}" never fires.`);
  return enqueueJob(db, job, {}, { idempotencyKey: `${job.name}:${due.toISOString()}` });
}
