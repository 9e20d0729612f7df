import { NonRetriableError } from "inngest";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { type Db } from "@/db/client";
import { getDb } from "@/lib/db/process-db";
import { jobs } from "@/db/schema/jobs";
import type { JobRegistry } from "@/lib/jobs/create-job-registry";
import { isScheduledJob, type JobDefinition, type JobLogger, type ScheduledJobDefinition } from "@/lib/jobs/define-job";
import { dispatchQueuedJobs } from "@/lib/jobs/dispatch-queued-jobs";
import { enqueueScheduledJob } from "@/lib/jobs/enqueue-scheduled-job";
import { jobEventName } from "@/lib/jobs/job-event";
import { createJobLogger } from "@/lib/jobs/job-logger";
import { jobRegistry } from "@/lib/job-runner/registry";
import { getInngest, type InngestClient } from "@/lib/jobs/inngest-client";

/**
 * The payload of the job an event names. Events carry only the row's id (`{ jobId }`): the payload
 * (a rendered email, a link) stays in the database and never travels to Inngest. An event sent by an
 * older release carries the payload itself.
 */
async function jobPayload(db: Db, name: string, data: unknown): Promise<unknown> {
  const jobId = (data as { jobId?: unknown } | undefined)?.jobId;
  if (typeof jobId !== "string") return data;
  const [row] = await db.select({ name: jobs.name, payload: jobs.payload }).from(jobs).where(eq(jobs.id, jobId));
  if (!row || row.name !== name) throw new NonRetriableError(`Job ${jobId} ("${name}") is not in the jobs table`);
  return row.payload;
}

type Retries = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20;

/**
 * One Inngest function per job, triggered by `jobs/<name>`. The handler runs at the function level
 * and its `ctx.step(id, fn)` calls are `step.run` — Inngest does not support steps nested inside a
 * step, so wrapping the whole handler in one `step.run` would break jobs that use steps. Work done
 * outside `ctx.step` may be replayed when a later step runs, as with any Inngest function.
 */
export function createJobFunction(client: InngestClient, definition: JobDefinition) {
  return client.createFunction(
    {
      id: `job-${definition.name}`,
      name: definition.name,
      retries: (definition.maxAttempts - 1) as Retries,
      triggers: [{ event: jobEventName(definition.name) }],
      // Fair per organization across every instance: runs of one key beyond the limit wait, others run.
      ...(definition.perKeyConcurrency ? { concurrency: [{ key: "event.data.fairnessKey", limit: definition.perKeyConcurrency }] } : {}),
      // Called by Inngest once the run has failed for good (retries spent, or a NonRetriableError).
      ...(definition.onFinalFailure
        ? {
            onFailure: async ({ event, error, logger, runId }: { event: { data: { event: { data?: unknown } } }; error: Error; logger: JobLogger; runId: string }) => {
              const db = await getDb();
              const parsed = definition.schema.safeParse(await jobPayload(db, definition.name, event.data.event.data));
              if (!parsed.success) return;
              await definition.onFinalFailure!(
                { db, logger: createJobLogger(logger, { job: definition.name, runId }) },
                parsed.data,
                { error: `${error.name}: ${error.message}`.slice(0, 4_000), attempts: definition.maxAttempts },
              );
            },
          }
        : {}),
    },
    async ({ event, step, attempt, logger, runId }) => {
      const db = await getDb();
      const parsed = definition.schema.safeParse(await jobPayload(db, definition.name, event.data));
      if (!parsed.success) {
        throw new NonRetriableError(`Invalid payload for job "${definition.name}": ${z.prettifyError(parsed.error)}`);
      }
      await definition.handler(
        {
          db,
          attempt: attempt + 1,
          step: <T>(id: string, fn: () => Promise<T>) => step.run(id, fn) as unknown as Promise<T>,
          engine: "inngest",
          logger: createJobLogger(logger, { job: definition.name, runId, attempt: attempt + 1 }),
        },
        parsed.data,
      );
    },
  );
}

export function createJobFunctions(client: InngestClient, registry: JobRegistry = jobRegistry) {
  return [...registry.values()].map((definition) => createJobFunction(client, definition));
}

/**
 * Drains the jobs outbox every minute: only the safety net. Each job's event leaves right after the
 * request that enqueued it (`dispatchAfterCommit`); this catches the rows whose send failed or whose
 * instance was frozen first.
 */
export function createOutboxDispatchFunction(client: InngestClient, registry: JobRegistry = jobRegistry) {
  return client.createFunction(
    { id: "jobs-outbox-dispatch", name: "jobs outbox dispatch", triggers: [{ cron: "* * * * *" }] },
    async () => ({ dispatched: await dispatchQueuedJobs(await getDb(), { sender: client, registry }) }),
  );
}

/**
 * Enqueues a scheduled job at every time its `schedule` names (the local runner's scheduler does
 * the same). The row goes out through the outbox relay and runs as `job-<name>`; the idempotency key
 * `<name>:<cron time>` keeps a retried or overlapping tick to one job per cron time.
 */
export function createScheduleFunction(client: InngestClient, definition: ScheduledJobDefinition) {
  return client.createFunction(
    { id: `schedule-${definition.name}`, name: `${definition.name} schedule`, triggers: [{ cron: definition.schedule }] },
    // `event.ts` is the time the cron fired, so a run retried later still enqueues that cron time.
    async ({ event }) => {
      const { job, created } = await enqueueScheduledJob(await getDb(), definition, { now: event.ts ? new Date(event.ts) : undefined });
      return { jobId: job.id, created };
    },
  );
}

/** The functions that run on a schedule rather than for a job event: the relay and every job with a `schedule`. */
export function createCronFunctions(client: InngestClient, registry: JobRegistry = jobRegistry) {
  return [
    createOutboxDispatchFunction(client, registry),
    ...[...registry.values()].filter(isScheduledJob).map((definition) => createScheduleFunction(client, definition)),
  ];
}

let functions: (ReturnType<typeof createJobFunction> | ReturnType<typeof createCronFunctions>[number])[] | undefined;

export function getInngestFunctions() {
  const client = getInngest();
  functions ??= [...createJobFunctions(client), ...createCronFunctions(client)];
  return functions;
}
