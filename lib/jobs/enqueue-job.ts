import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { jobs, type Job } from "@/db/schema/jobs";
import { getEnv, isInngestConfigured } from "@/lib/env";
import type { JobDeclaration, JobPayloadSchema } from "./define-job";
import { dispatchAfterCommit } from "./after-commit-hook";

export type EnqueueJobOptions = {
  /** Same key for the same job → one job (local: unique row; Inngest: event id, deduplicated for 24 h). */
  idempotencyKey?: string;
  /** Earliest start; default now. */
  runAt?: Date;
  /** Whose work this is (an organization's id), for jobs declared with `perKeyConcurrency`. */
  fairnessKey?: string;
  /** Defaults to `isInngestConfigured()`; only reported back; the row is written either way. */
  engine?: "local" | "inngest";
};

export type EnqueuedJob = { engine: "local" | "inngest"; job: Job; created: boolean };

/**
 * Validates the payload against the job's schema and writes the job into the `jobs` table through
 * `db`. The payload is typed by the job's schema; the check here still catches what types cannot
 * (formats, refinements). Pass the caller's transaction: the job commits or rolls back with the rows
 * that caused it (the transactional outbox: a job is a row written with the change), on both engines.
 *
 * Local engine: a worker claims the row and runs it. Inngest: the dispatcher
 * (`dispatchQueuedJobs`) sends committed rows as `jobs/<name>` events, so a rolled-back transaction
 * never reaches Inngest and a failed send is retried from the row instead of being lost. In a server,
 * the row leaves right after the request's commit (`dispatchAfterCommit`), not on the next poll.
 */
export async function enqueueJob<TSchema extends JobPayloadSchema>(
  db: Db,
  job: JobDeclaration<TSchema>,
  payload: z.input<TSchema>,
  options: EnqueueJobOptions = {},
): Promise<EnqueuedJob> {
  const parsed = job.schema.safeParse(payload);
  if (!parsed.success) {
    throw new Error(`Invalid payload for job "${job.name}": ${z.prettifyError(parsed.error)}`);
  }
  const engine = options.engine ?? (isInngestConfigured(getEnv()) ? "inngest" : "local");

  const [inserted] = await db
    .insert(jobs)
    .values({
      name: job.name,
      payload: parsed.data,
      maxAttempts: job.maxAttempts,
      idempotencyKey: options.idempotencyKey ?? null,
      fairnessKey: options.fairnessKey ?? null,
      ...(options.runAt ? { runAt: options.runAt } : {}),
    })
    .onConflictDoNothing({ target: [jobs.name, jobs.idempotencyKey] })
    .returning();
  if (inserted) {
    dispatchAfterCommit(inserted.id);
    return { engine, job: inserted, created: true };
  }

  // Only an idempotency key can conflict; the row that holds it is committed (or ours) by now.
  const [existing] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.name, job.name), eq(jobs.idempotencyKey, options.idempotencyKey ?? "")));
  if (!existing) throw new Error(`Job "${job.name}" conflicted on its idempotency key but was not found.`);
  return { engine, job: existing, created: false };
}

/**
 * Several jobs of one kind in one insert (a fan-out: one event to many endpoints), each as
 * `enqueueJob` would write it. A row whose idempotency key exists already is skipped. Returns the
 * rows written.
 */
export async function enqueueJobs<TSchema extends JobPayloadSchema>(
  db: Db,
  job: JobDeclaration<TSchema>,
  items: { payload: z.input<TSchema>; options?: Omit<EnqueueJobOptions, "engine"> }[],
): Promise<Job[]> {
  if (items.length === 0) return [];
  const values = items.map(({ payload, options = {} }) => {
    const parsed = job.schema.safeParse(payload);
    if (!parsed.success) throw new Error(`Invalid payload for job "${job.name}": ${z.prettifyError(parsed.error)}`);
    return {
      name: job.name,
      payload: parsed.data,
      maxAttempts: job.maxAttempts,
      idempotencyKey: options.idempotencyKey ?? null,
      ...(options.runAt ? { runAt: options.runAt } : {}),
    };
  });
  const inserted = await db.insert(jobs).values(values).onConflictDoNothing({ target: [jobs.name, jobs.idempotencyKey] }).returning();
  for (const row of inserted) dispatchAfterCommit(row.id);
  return inserted;
}
