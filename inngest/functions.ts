import { NonRetriableError } from "inngest";
import { z } from "zod";
import { getDb } from "@/db/client";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { dispatchQueuedJobs } from "@/lib/jobs/dispatch-queued-jobs";
import { jobEventName } from "@/lib/jobs/job-event";
import { createJobLogger } from "@/lib/jobs/job-logger";
import { getJobRegistry, type JobRegistry } from "@/lib/jobs/registry";
import { scheduleExpireSignings } from "@/lib/signings/expire-signings-job";
import { getInngest, type InngestClient } from "./client";

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
    },
    async ({ event, step, attempt, logger, runId }) => {
      const parsed = definition.schema.safeParse(event.data);
      if (!parsed.success) {
        throw new NonRetriableError(`Invalid payload for job "${definition.name}": ${z.prettifyError(parsed.error)}`);
      }
      const db = await getDb();
      await definition.handler(
        {
          db,
          attempt: attempt + 1,
          step: <T>(id: string, fn: () => Promise<T>) => step.run(id, fn) as unknown as Promise<T>,
          logger: createJobLogger(logger, { job: definition.name, runId, attempt: attempt + 1 }),
        },
        parsed.data,
      );
    },
  );
}

export function createJobFunctions(client: InngestClient, registry: JobRegistry = getJobRegistry()) {
  return [...registry.values()].map((definition) => createJobFunction(client, definition));
}

/**
 * Drains the jobs outbox every minute: the safety net for deployments with no long-running process
 * to run the relay (serverless), and for rows a crashed relay left behind.
 */
export function createOutboxDispatchFunction(client: InngestClient) {
  return client.createFunction(
    { id: "jobs-outbox-dispatch", name: "jobs outbox dispatch", triggers: [{ cron: "* * * * *" }] },
    async () => ({ dispatched: await dispatchQueuedJobs(await getDb(), { sender: client }) }),
  );
}

/**
 * Enqueues the signing expiry sweep every five minutes (the local runner's worker does the same).
 * The job row goes out through the outbox relay; its bucket key keeps a retried or overlapping tick
 * to one job per bucket.
 */
export function createSigningExpiryScheduleFunction(client: InngestClient) {
  return client.createFunction(
    { id: "signings-expiry-schedule", name: "signings expiry schedule", triggers: [{ cron: "*/5 * * * *" }] },
    async () => {
      const { job, created } = await scheduleExpireSignings(await getDb());
      return { jobId: job.id, created };
    },
  );
}

/** The functions that run on a schedule rather than for a job event. */
export function createCronFunctions(client: InngestClient) {
  return [createOutboxDispatchFunction(client), createSigningExpiryScheduleFunction(client)];
}

let functions: (ReturnType<typeof createJobFunction> | ReturnType<typeof createCronFunctions>[number])[] | undefined;

export function getInngestFunctions() {
  const client = getInngest();
  functions ??= [...createJobFunctions(client), ...createCronFunctions(client)];
  return functions;
}
