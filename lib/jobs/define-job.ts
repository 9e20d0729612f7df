import type { z } from "zod";
import type { Db } from "@/db/client";
import { latestCronTime } from "./latest-cron-time";
import { parseCronExpression } from "./parse-cron-expression";

/** Inngest caps function retries at 20, so a job gets at most 21 attempts on either engine. */
export const MAX_JOB_ATTEMPTS = 21;
export const DEFAULT_JOB_ATTEMPTS = 8;

export type JobLogger = {
  debug: (msg: string, fields?: Record<string, unknown>) => void;
  info: (msg: string, fields?: Record<string, unknown>) => void;
  warn: (msg: string, fields?: Record<string, unknown>) => void;
  error: (msg: string, fields?: Record<string, unknown>) => void;
};

export type JobContext = {
  db: Db;
  /** 1 on the first attempt, 2 on the first retry, … on both engines. */
  attempt: number;
  /**
   * A named unit of work. Under Inngest it is `step.run`: a step that succeeded is not run again
   * when a later step fails and the run is retried. The local runner simply calls `fn` and retries
   * the whole handler, so every step must be safe to repeat (upserts, idempotency keys).
   * Step results are JSON-serialized by Inngest; return plain data.
   */
  step: <T>(id: string, fn: () => Promise<T>) => Promise<T>;
  /**
   * Which engine runs this attempt. A long job cut into bounded pieces runs them as steps under
   * Inngest (each step its own request); under the local runner it does one piece and enqueues
   * itself for the next, so one job run stays bounded there too.
   */
  engine: "local" | "inngest";
  logger: JobLogger;
};

/** Payloads travel as JSON (a `jobs` row or an Inngest event's data): an object of plain values. */
export type JobPayloadSchema = z.ZodType<Record<string, unknown>>;

/**
 * What enqueueing a job needs: its name, payload schema and attempts, without its handler. A module
 * that only enqueues (a domain write emitting an event) imports the declaration, not the handler's
 * imports, which keeps the import graph one-way.
 */
export type JobDeclaration<TSchema extends JobPayloadSchema = JobPayloadSchema> = Pick<JobDefinition<TSchema>, "name" | "schema" | "maxAttempts" | "perKeyConcurrency">;

/** Why a job failed for good, as its final attempt's error reads (`Error: …`); for logs and records, not for users. */
export type JobFailure = { error: string; attempts: number };

export type JobDefinition<TSchema extends JobPayloadSchema = JobPayloadSchema> = {
  name: string;
  schema: TSchema;
  /** Total attempts including the first (1–21). */
  maxAttempts: number;
  /**
   * Jobs enqueued with a `fairnessKey` (an organization) share the engine fairly: Inngest runs at
   * most this many at once per key, and the local runner claims the due job whose key has the fewest
   * running first. Unset: no per-key limit.
   */
  perKeyConcurrency?: number;
  /**
   * Five-field cron expression (UTC). Both engines enqueue the job with the payload `{}` at every
   * time it names, once per time however many schedulers run (`enqueueScheduledJob`).
   */
  schedule?: string;
  // Method syntax keeps definitions with specific payloads assignable to `JobDefinition`.
  handler(ctx: JobContext, payload: z.output<TSchema>): Promise<void>;
  /**
   * Runs once the job has failed for good, on either engine: its last attempt failed, a failure
   * retrying cannot fix was thrown (`NonRetriableError`), or its worker died during the last attempt.
   * For work whose own record would otherwise say "in progress" forever (a scan being read): mark it
   * failed where its users see it. Must be safe to run again, and after the handler already recorded
   * a more precise failure. Not run when the payload itself is invalid.
   */
  onFinalFailure?(ctx: { db: Db; logger: JobLogger }, payload: z.output<TSchema>, failure: JobFailure): Promise<void>;
};

/** A job the engines enqueue on a schedule. */
export type ScheduledJobDefinition = JobDefinition & { schedule: string };

/**
 * Declares a background job. The same handler runs under Inngest (production) and under the local
 * database-backed runner; it must be idempotent because both engines retry it after a failure.
 * Throw `NonRetriableError` (from `inngest`) for a failure that retrying cannot fix.
 *
 * Add the definition to `lib/job-runner/registry.ts`; callers enqueue it with `enqueueJob(tx, job, payload)`.
 * With `schedule`, the engines also enqueue it on that cron schedule; its schema must accept `{}`.
 */
export function defineJob<TSchema extends JobPayloadSchema>(definition: {
  name: string;
  schema: TSchema;
  maxAttempts?: number;
  perKeyConcurrency?: number;
  schedule?: string;
  handler: (ctx: JobContext, payload: z.output<TSchema>) => Promise<void>;
  onFinalFailure?: (ctx: { db: Db; logger: JobLogger }, payload: z.output<TSchema>, failure: JobFailure) => Promise<void>;
}): JobDefinition<TSchema> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(definition.name)) {
    throw new Error(`Job name "${definition.name}" must be kebab-case (a-z, 0-9, -).`);
  }
  const maxAttempts = definition.maxAttempts ?? DEFAULT_JOB_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > MAX_JOB_ATTEMPTS) {
    throw new Error(`Job "${definition.name}": maxAttempts must be an integer from 1 to ${MAX_JOB_ATTEMPTS}.`);
  }
  if (definition.schedule !== undefined) {
    const cron = parseCronExpression(definition.schedule);
    if (!latestCronTime(cron, new Date())) throw new Error(`Job "${definition.name}": schedule "${definition.schedule}" never fires.`);
    if (!definition.schema.safeParse({}).success) {
      throw new Error(`Job "${definition.name}" has a schedule, so its schema must accept the scheduled payload {}.`);
    }
  }
  return { ...definition, maxAttempts };
}

export function isScheduledJob(definition: JobDefinition): definition is ScheduledJobDefinition {
  return typeof definition.schedule === "string";
}
