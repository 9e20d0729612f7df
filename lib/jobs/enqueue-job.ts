import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { jobs, type Job } from "@/db/schema/jobs";
import { getEnv, isInngestConfigured } from "@/lib/env";
import { jobEventId, jobEventName } from "./job-event";
import { getJobDefinitionOrThrow, jobRegistry, type JobRegistry } from "./registry";

export type EnqueueJobInput = {
  name: string;
  payload: unknown;
  /** Same key for the same job name → one job (local: unique row; Inngest: event id, deduplicated for 24 h). */
  idempotencyKey?: string;
  /** Earliest start; default now. */
  runAt?: Date;
};

export type EnqueuedJob =
  | { engine: "local"; job: Job; created: boolean }
  | { engine: "inngest"; eventId: string };

/** The Inngest client's `send`, narrowed to what enqueueing needs (tests pass a client with a fake fetch). */
export type JobEventSender = {
  send: (event: { name: string; data: Record<string, unknown>; id?: string; ts?: number }) => Promise<{ ids: string[] }>;
};

export type EnqueueJobOptions = {
  registry?: JobRegistry;
  /** Defaults to `isInngestConfigured()`. */
  engine?: "local" | "inngest";
  /** Defaults to the process-wide Inngest client. */
  inngest?: JobEventSender;
};

/**
 * Validates the payload against the job's schema and hands the job to the configured engine.
 *
 * Local engine: inserts a `jobs` row through `db`, so pass the caller's transaction — the job then
 * commits or rolls back with the rows that caused it (the outbox of STYLE §9), and a worker can
 * never see a job whose data is not committed yet.
 *
 * Inngest: the event is sent immediately and cannot be rolled back, so call this after the
 * transaction commits. If the send fails, the caller should answer 5xx; retrying with the same
 * `idempotencyKey` (for example when a provider redelivers a webhook already stored) is safe.
 */
export async function enqueueJob(db: Db, input: EnqueueJobInput, options: EnqueueJobOptions = {}): Promise<EnqueuedJob> {
  const definition = getJobDefinitionOrThrow(input.name, options.registry ?? jobRegistry);
  const parsed = definition.schema.safeParse(input.payload);
  if (!parsed.success) {
    throw new Error(`Invalid payload for job "${definition.name}": ${z.prettifyError(parsed.error)}`);
  }
  const payload = parsed.data;
  const engine = options.engine ?? (isInngestConfigured(getEnv()) ? "inngest" : "local");

  if (engine === "inngest") {
    const sender = options.inngest ?? (await import("@/inngest/client")).getInngest();
    const { ids } = await sender.send({
      name: jobEventName(definition.name),
      data: payload,
      ...(input.idempotencyKey ? { id: jobEventId(definition.name, input.idempotencyKey) } : {}),
      // A future `ts` makes Inngest start the run at that time.
      ...(input.runAt ? { ts: input.runAt.getTime() } : {}),
    });
    const eventId = ids[0];
    if (!eventId) throw new Error(`Inngest accepted no event for job "${definition.name}".`);
    return { engine: "inngest", eventId };
  }

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
  if (inserted) return { engine: "local", job: inserted, created: true };

  // Only an idempotency key can conflict; the row that holds it is committed (or ours) by now.
  const [existing] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.name, definition.name), eq(jobs.idempotencyKey, input.idempotencyKey ?? "")));
  if (!existing) throw new Error(`Job "${definition.name}" conflicted on its idempotency key but was not found.`);
  return { engine: "local", job: existing, created: false };
}
