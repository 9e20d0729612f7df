import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { jobs, type Job } from "@/db/schema/jobs";
import { getEnv, isInngestConfigured } from "@/lib/env";
import { getJobDefinitionOrThrow, getJobRegistry, type JobRegistry } from "./registry";

export type EnqueueJobInput = {
  name: string;
  payload: unknown;
  /** Same key for the same job name → one job (local: unique row; Inngest: event id, deduplicated for 24 h). */
  idempotencyKey?: string;
  /** Earliest start; default now. */
  runAt?: Date;
};

export type EnqueuedJob = { engine: "local" | "inngest"; job: Job; created: boolean };

export type EnqueueJobOptions = {
  registry?: JobRegistry;
  /** Defaults to `isInngestConfigured()`; only reported back; the row is written either way. */
  engine?: "local" | "inngest";
};

/**
 * Validates the payload against the job's schema and writes the job into the `jobs` table through
 * `db`. Pass the caller's transaction: the job commits or rolls back with the rows that caused it
 * (the outbox of STYLE §9), on both engines.
 *
 * Local engine: a worker claims the row and runs it. Inngest: the dispatcher
 * (`dispatchQueuedJobs`) sends committed rows as `jobs/<name>` events, so a rolled-back transaction
 * never reaches Inngest and a failed send is retried from the row instead of being lost.
 */
export async function enqueueJob(db: Db, input: EnqueueJobInput, options: EnqueueJobOptions = {}): Promise<EnqueuedJob> {
  const definition = getJobDefinitionOrThrow(input.name, options.registry ?? getJobRegistry());
  const parsed = definition.schema.safeParse(input.payload);
  if (!parsed.success) {
    throw new Error(`Invalid payload for job "${definition.name}": ${z.prettifyError(parsed.error)}`);
  }
  const payload = parsed.data;
  const engine = options.engine ?? (isInngestConfigured(getEnv()) ? "inngest" : "local");

  const [inserted] = await db
    .insert(jobs)
    .values({
      name: definition.name,
      payload,
      maxAttempts: definition.maxAttempts,
      idempotencyKey: input.idempotencyKey ?? null,
      ...(input.runAt ? { runAt: input.runAt } : {}),
    })
    .onConflictDoNothing({ target: [jobs.name, jobs.idempotencyKey] })
    .returning();
  if (inserted) return { engine, job: inserted, created: true };

  // Only an idempotency key can conflict; the row that holds it is committed (or ours) by now.
  const [existing] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.name, definition.name), eq(jobs.idempotencyKey, input.idempotencyKey ?? "")));
  if (!existing) throw new Error(`Job "${definition.name}" conflicted on its idempotency key but was not found.`);
  return { engine, job: existing, created: false };
}
