import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { NonRetriableError } from "inngest";
import { z } from "zod";
import type { Db } from "@/db/client";
import { jobs, type Job } from "@/db/schema/jobs";
import { errorDetails } from "@/lib/errors";
import { log } from "@/lib/log";
import { computeBackoffMs } from "@/lib/jobs/compute-backoff";
import type { JobContext, JobDefinition, JobFailure } from "@/lib/jobs/define-job";
import { createJobLogger } from "@/lib/jobs/job-logger";
import type { JobRegistry } from "@/lib/jobs/create-job-registry";
import { jobRegistry } from "./registry";

export const DEFAULT_LEASE_MS = 5 * 60_000;

export type RunDueJobsOptions = {
  workerId: string;
  /** Most jobs claimed (and run concurrently) in this batch. */
  limit?: number;
  /** How long a claim lasts without a heartbeat; a crashed worker's jobs are claimable after it. */
  leaseMs?: number;
  /** The jobs this worker knows; default every job of the application. */
  registry?: JobRegistry;
  random?: () => number;
};

export type RunDueJobsResult = { claimed: number; succeeded: number; retried: number; failed: number };

/**
 * One pass of the local runner: claims up to `limit` due jobs and runs them.
 *
 * A job is due when it is `queued` with `run_at` reached, or `running` with an expired lease (its
 * worker crashed or lost the database). The claim is one statement — `UPDATE … WHERE id IN (SELECT …
 * FOR UPDATE SKIP LOCKED LIMIT n) RETURNING` — so concurrent workers (threads, processes or hosts on
 * the same PostgreSQL) each get disjoint rows, and the attempt is counted at claim time so a crash
 * still uses up an attempt. Only names in `registry` are claimed: a worker running older code leaves
 * jobs it does not know for one that does.
 */
export async function runDueJobs(db: Db, options: RunDueJobsOptions): Promise<RunDueJobsResult> {
  const registry = options.registry ?? jobRegistry;
  const names = [...registry.keys()];
  const result: RunDueJobsResult = { claimed: 0, succeeded: 0, retried: 0, failed: 0 };
  if (names.length === 0) return result;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;

  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.name, names),
        or(
          and(eq(jobs.status, "queued"), lte(jobs.runAt, sql`now()`)),
          and(eq(jobs.status, "running"), lt(jobs.lockedUntil, sql`now()`)),
        ),
      ),
    )
    // Fair across organizations: a due job whose fairness key has fewer jobs running goes first
    // (a key with none running before any other), then the oldest. So one organization's long
    // scan, chunk after chunk, never keeps another's one-page scan waiting for a free claim.
    .orderBy(
      sql`(case when ${jobs.fairnessKey} is null then 0 else (select count(*) from ${jobs} as r where r.fairness_key = ${jobs.fairnessKey} and r.status = 'running' and r.locked_until >= now()) end)`,
      asc(jobs.runAt),
    )
    .limit(options.limit ?? 10)
    .for("update", { skipLocked: true });

  const claimed = await db
    .update(jobs)
    .set({
      status: "running",
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: options.workerId,
      lockedUntil: leaseEnd(leaseMs),
    })
    .where(inArray(jobs.id, due))
    .returning();
  result.claimed = claimed.length;

  // Settle every job before returning (or throwing), so a caller that stops the worker after this
  // batch never leaves a handler running. A job whose final update failed keeps its lease and is
  // retried once the lease expires. Every claimed name is in `registry` (the claim filters on it).
  const settled = await Promise.allSettled(
    claimed.map((job) => runClaimedJob(db, job, registry.get(job.name)!, { ...options, leaseMs })),
  );
  for (const outcome of settled) {
    if (outcome.status === "rejected") throw outcome.reason;
    result[outcome.value] += 1;
  }
  return result;
}

function leaseEnd(leaseMs: number) {
  return sql`now() + ${Math.ceil(leaseMs)}::integer * interval '1 millisecond'`;
}

type Outcome = "succeeded" | "retried" | "failed";

async function runClaimedJob(
  db: Db,
  job: Job,
  definition: JobDefinition,
  options: RunDueJobsOptions & { leaseMs: number },
): Promise<Outcome> {
  const fields = { job: job.name, jobId: job.id, attempt: job.attempts, workerId: options.workerId };
  const mine = and(eq(jobs.id, job.id), eq(jobs.lockedBy, options.workerId), eq(jobs.status, "running"));

  // Reclaimed after a crash during its last attempt: nothing left to try.
  if (job.attempts > job.maxAttempts) {
    const error = "lease expired during the final attempt";
    await db
      .update(jobs)
      .set({ status: "failed", attempts: Math.min(job.attempts, job.maxAttempts), lastError: error, finishedAt: sql`now()`, lockedBy: null, lockedUntil: null })
      .where(mine);
    log.error("job failed", { ...fields, error });
    await runFinalFailure(db, job, definition, { error, attempts: job.maxAttempts }, fields);
    return "failed";
  }

  // Keep the lease while the handler runs, so a slow job is not taken over by another worker.
  const heartbeat = setInterval(() => {
    db.update(jobs)
      .set({ lockedUntil: leaseEnd(options.leaseMs) })
      .where(mine)
      .catch((error: unknown) => log.warn("job lease renewal failed", { ...fields, error }));
  }, Math.max(250, Math.floor(options.leaseMs / 3)));
  heartbeat.unref();

  const startedAt = Date.now();
  try {
    const parsed = definition.schema.safeParse(job.payload);
    if (!parsed.success) throw new NonRetriableError(`Invalid payload: ${z.prettifyError(parsed.error)}`);
    const ctx: JobContext = {
      db,
      attempt: job.attempts,
      step: (_id, fn) => fn(),
      engine: "local",
      logger: createJobLogger(log, fields),
    };
    await definition.handler(ctx, parsed.data);
  } catch (error) {
    clearInterval(heartbeat);
    const message = describeError(error);
    const permanent = isNonRetriable(error) || job.attempts >= job.maxAttempts;
    if (permanent) {
      await runFinalFailure(db, job, definition, { error: message, attempts: job.attempts }, fields);
      await db
        .update(jobs)
        .set({ status: "failed", lastError: message, finishedAt: sql`now()`, lockedBy: null, lockedUntil: null })
        .where(mine);
      log.error("job failed", { ...fields, error, durationMs: Date.now() - startedAt });
      return "failed";
    }
    const delayMs = computeBackoffMs(job.attempts, options.random);
    await db
      .update(jobs)
      .set({
        status: "queued",
        lastError: message,
        runAt: sql`now() + ${delayMs}::integer * interval '1 millisecond'`,
        lockedBy: null,
        lockedUntil: null,
      })
      .where(mine);
    log.warn("job attempt failed; retrying", { ...fields, error, retryInMs: delayMs, durationMs: Date.now() - startedAt });
    return "retried";
  }
  clearInterval(heartbeat);
  const updated = await db
    .update(jobs)
    .set({ status: "succeeded", lastError: null, finishedAt: sql`now()`, lockedBy: null, lockedUntil: null })
    .where(mine)
    .returning({ id: jobs.id });
  if (updated.length === 0) log.warn("job finished after its lease was taken over", fields);
  else log.info("job succeeded", { ...fields, durationMs: Date.now() - startedAt });
  return "succeeded";
}

/**
 * The job's `onFinalFailure`, before its row is marked failed: when the hook itself cannot run (the
 * database gone), the error is logged and the job still ends failed; a hook must not fail a job twice.
 */
async function runFinalFailure(db: Db, job: Job, definition: JobDefinition, failure: JobFailure, fields: Record<string, unknown>) {
  if (!definition.onFinalFailure) return;
  const parsed = definition.schema.safeParse(job.payload);
  if (!parsed.success) return;
  try {
    await definition.onFinalFailure({ db, logger: createJobLogger(log, fields) }, parsed.data, failure);
  } catch (error) {
    log.error("job final-failure hook failed", { ...fields, error });
  }
}

function isNonRetriable(error: unknown): boolean {
  return error instanceof NonRetriableError || (error instanceof Error && error.name === "NonRetriableError");
}

function describeError(error: unknown): string {
  const { name, message } = errorDetails(error);
  return `${name}: ${message}`.slice(0, 4_000);
}
