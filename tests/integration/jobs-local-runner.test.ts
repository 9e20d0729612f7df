import { eq, sql } from "drizzle-orm";
import { NonRetriableError } from "inngest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { openDb, type Db, type DbHandle } from "@/db/client";
import { jobs, type Job } from "@/db/schema/jobs";
import { defineJob } from "@/lib/jobs/define-job";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { startJobPolling } from "@/lib/job-runner/start-job-polling";
import { startJobScheduler } from "@/lib/job-runner/start-job-scheduler";
import { createTestDb, type TestDb } from "../helpers/db";

// Test-only jobs: their effects go to a table this file creates, so assertions read real rows.
const recordEffect = defineJob({
  name: "record-effect",
  schema: z.object({ key: z.string(), failAttempts: z.number().int().min(0).default(0), delayMs: z.number().default(0) }),
  maxAttempts: 3,
  handler: async (ctx, payload) => {
    await ctx.db.execute(sql`insert into test_job_attempts (key, attempt) values (${payload.key}, ${ctx.attempt})`);
    if (payload.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, payload.delayMs));
    if (ctx.attempt <= payload.failAttempts) throw new Error(`planned failure on attempt ${ctx.attempt}`);
    await ctx.step("record", async () => {
      await ctx.db.execute(sql`insert into test_job_effects (key) values (${payload.key})`);
    });
  },
});

const rejectPermanently = defineJob({
  name: "reject-permanently",
  schema: z.object({ key: z.string() }),
  handler: async (ctx, payload) => {
    await ctx.db.execute(sql`insert into test_job_attempts (key, attempt) values (${payload.key}, ${ctx.attempt})`);
    throw new NonRetriableError("the recipient no longer exists");
  },
});

const registry = createJobRegistry([recordEffect, rejectPermanently]);
const local = { engine: "local" } as const;

let testDb: TestDb;
let db: Db;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  await db.execute(sql`create table test_job_effects (key text not null)`);
  await db.execute(sql`create table test_job_attempts (key text not null, attempt integer not null)`);
});

afterAll(async () => {
  await testDb.cleanup();
});

beforeEach(async () => {
  await db.execute(sql`truncate jobs, test_job_effects, test_job_attempts`);
});

async function getJob(id: string): Promise<Job> {
  const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
  if (!job) throw new Error(`job ${id} not found`);
  return job;
}

async function effectsFor(key: string): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from test_job_effects where key = ${key}`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

/** postgres.js returns an array, PGlite a `{ rows }` result. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

/** Moves a job's retry time to now, as if its backoff had elapsed. */
async function makeDue(id: string): Promise<void> {
  await db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, id));
}

async function dbNow(): Promise<Date> {
  const [row] = rowsOf<{ now: string | Date }>(await db.execute(sql`select now() as now`));
  return new Date(row!.now);
}

describe("enqueueJob (local engine)", () => {
  it("queues a validated job that a worker then runs to success", async () => {
    const enqueued = await enqueueJob(db, recordEffect, { key: "ok" });
    expect(enqueued.engine).toBe("local");
    if (enqueued.engine !== "local") return;
    expect(enqueued.created).toBe(true);
    expect(enqueued.job).toMatchObject({ status: "queued", attempts: 0, maxAttempts: 3, payload: { key: "ok", failAttempts: 0, delayMs: 0 } });

    const result = await runDueJobs(db, { workerId: "w1", registry });
    expect(result).toEqual({ claimed: 1, succeeded: 1, retried: 0, failed: 0 });

    const job = await getJob(enqueued.job.id);
    expect(job).toMatchObject({ status: "succeeded", attempts: 1, lastError: null, lockedBy: null, lockedUntil: null });
    expect(job.finishedAt).toBeInstanceOf(Date);
    expect(await effectsFor("ok")).toBe(1);
    expect(await runDueJobs(db, { workerId: "w1", registry })).toMatchObject({ claimed: 0 });
  });

  it("rejects an invalid payload without writing a row; the payload type is the job's schema", async () => {
    // @ts-expect-error `key` is a string in recordEffect's schema
    await expect(enqueueJob(db, recordEffect, { key: 42 }, local)).rejects.toThrow(/Invalid payload for job "record-effect"/);
    // @ts-expect-error `key` is required
    await expect(enqueueJob(db, rejectPermanently, {}, local)).rejects.toThrow(/Invalid payload for job "reject-permanently"/);
    // Types cannot check formats: the schema still runs at enqueue time.
    const withFormat = defineJob({ name: "with-format", schema: z.object({ id: z.uuid() }), handler: async () => {} });
    await expect(enqueueJob(db, withFormat, { id: "not-a-uuid" }, local)).rejects.toThrow(/Invalid payload for job "with-format"/);
    expect(await db.$count(jobs)).toBe(0);
  });

  it("takes a job definition, not a name", async () => {
    // @ts-expect-error a job is enqueued by its definition, so a misspelt name cannot compile
    await expect(enqueueJob(db, "record-effect", { key: "by-name" }, local)).rejects.toThrow();
    expect(await db.$count(jobs)).toBe(0);
  });

  it("returns the existing job for a repeated idempotency key instead of creating another", async () => {
    const first = await enqueueJob(db, recordEffect, { key: "a" }, { ...local, idempotencyKey: "evt_1" });
    const second = await enqueueJob(db, recordEffect, { key: "b" }, { ...local, idempotencyKey: "evt_1" });
    const otherJob = await enqueueJob(db, rejectPermanently, { key: "c" }, { ...local, idempotencyKey: "evt_1" });
    if (first.engine !== "local" || second.engine !== "local" || otherJob.engine !== "local") throw new Error("expected local");
    expect(second.created).toBe(false);
    expect(second.job.id).toBe(first.job.id);
    expect(second.job.payload).toEqual(first.job.payload);
    expect(otherJob.created).toBe(true);
    expect(await db.$count(jobs)).toBe(2);

    await runDueJobs(db, { workerId: "w1", registry });
    expect(await effectsFor("a")).toBe(1);
    expect(await effectsFor("b")).toBe(0);
  });

  it("commits and rolls back with the caller's transaction (outbox)", async () => {
    await expect(
      db.transaction(async (tx) => {
        await enqueueJob(tx, recordEffect, { key: "rolled-back" }, local);
        throw new Error("the business write failed");
      }),
    ).rejects.toThrow("the business write failed");
    expect(await db.$count(jobs)).toBe(0);

    await db.transaction(async (tx) => {
      await enqueueJob(tx, recordEffect, { key: "committed" }, { ...local, idempotencyKey: "k" });
      // A repeat inside the same transaction sees the uncommitted row.
      const again = await enqueueJob(tx, recordEffect, { key: "committed" }, { ...local, idempotencyKey: "k" });
      expect(again.engine === "local" && again.created).toBe(false);
    });
    expect(await db.$count(jobs)).toBe(1);
  });

  it("does not run a job before its runAt", async () => {
    const later = new Date(Date.now() + 60_000);
    const enqueued = await enqueueJob(db, recordEffect, { key: "later" }, { ...local, runAt: later });
    if (enqueued.engine !== "local") throw new Error("expected local");
    expect(await runDueJobs(db, { workerId: "w1", registry })).toMatchObject({ claimed: 0 });
    await makeDue(enqueued.job.id);
    expect(await runDueJobs(db, { workerId: "w1", registry })).toMatchObject({ succeeded: 1 });
  });
});

describe("runDueJobs retries", () => {
  it("records the error, counts the attempt and backs off before retrying", async () => {
    const enqueued = await enqueueJob(db, recordEffect, { key: "flaky", failAttempts: 1 }, local);
    if (enqueued.engine !== "local") throw new Error("expected local");

    const before = await dbNow();
    expect(await runDueJobs(db, { workerId: "w1", registry, random: () => 1 })).toMatchObject({ claimed: 1, retried: 1 });
    const failed = await getJob(enqueued.job.id);
    expect(failed).toMatchObject({ status: "queued", attempts: 1, lockedBy: null, finishedAt: null });
    expect(failed.lastError).toBe("Error: planned failure on attempt 1");
    // First retry: 2 s · 2^0 with full jitter (random = 1) → 2 s after the failure.
    const delayMs = failed.runAt.getTime() - before.getTime();
    expect(delayMs).toBeGreaterThanOrEqual(2_000);
    expect(delayMs).toBeLessThan(5_000);

    expect(await runDueJobs(db, { workerId: "w1", registry })).toMatchObject({ claimed: 0 });
    expect(await effectsFor("flaky")).toBe(0);

    await makeDue(enqueued.job.id);
    expect(await runDueJobs(db, { workerId: "w1", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await getJob(enqueued.job.id)).toMatchObject({ status: "succeeded", attempts: 2, lastError: null });
    expect(await effectsFor("flaky")).toBe(1);
  });

  it("grows the backoff with each attempt", async () => {
    const enqueued = await enqueueJob(db, recordEffect, { key: "grow", failAttempts: 3 }, local);
    if (enqueued.engine !== "local") throw new Error("expected local");
    const delays: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      const before = await dbNow();
      await runDueJobs(db, { workerId: "w1", registry, random: () => 0 });
      delays.push((await getJob(enqueued.job.id)).runAt.getTime() - before.getTime());
      await makeDue(enqueued.job.id);
    }
    expect(delays[0]).toBeGreaterThanOrEqual(1_000);
    expect(delays[1]).toBeGreaterThanOrEqual(2_000);
    expect(delays[1]!).toBeGreaterThan(delays[0]!);
  });

  it("marks the job failed once max_attempts is used up", async () => {
    const enqueued = await enqueueJob(db, recordEffect, { key: "doomed", failAttempts: 99 }, local);
    if (enqueued.engine !== "local") throw new Error("expected local");

    const outcomes: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const result = await runDueJobs(db, { workerId: "w1", registry });
      outcomes.push(result.failed ? "failed" : result.retried ? "retried" : result.claimed ? "ran" : "idle");
      await makeDue(enqueued.job.id);
    }
    expect(outcomes).toEqual(["retried", "retried", "failed", "idle"]);
    const job = await getJob(enqueued.job.id);
    expect(job).toMatchObject({ status: "failed", attempts: 3, lastError: "Error: planned failure on attempt 3", lockedBy: null });
    expect(job.finishedAt).toBeInstanceOf(Date);
    const attempts = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from test_job_attempts where key = 'doomed'`));
    expect(attempts[0]?.n).toBe(3);
    expect(await effectsFor("doomed")).toBe(0);
  });

  it("fails at once on NonRetriableError", async () => {
    const enqueued = await enqueueJob(db, rejectPermanently, { key: "gone" }, local);
    if (enqueued.engine !== "local") throw new Error("expected local");
    expect(await runDueJobs(db, { workerId: "w1", registry })).toMatchObject({ failed: 1 });
    expect(await getJob(enqueued.job.id)).toMatchObject({
      status: "failed",
      attempts: 1,
      maxAttempts: 8,
      lastError: "NonRetriableError: the recipient no longer exists",
    });
  });

  it("leaves jobs it has no handler for to a worker that has one", async () => {
    await enqueueJob(db, rejectPermanently, { key: "x" }, local);
    const onlyRecord = createJobRegistry([recordEffect]);
    expect(await runDueJobs(db, { workerId: "old-code", registry: onlyRecord })).toMatchObject({ claimed: 0 });
    expect(await db.$count(jobs, eq(jobs.status, "queued"))).toBe(1);
  });
});

describe("leases", () => {
  it("reclaims a running job whose worker stopped renewing its lease (restart after a crash)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const blocking = defineJob({
      name: "record-effect",
      schema: recordEffect.schema,
      maxAttempts: 3,
      handler: async (ctx, payload) => {
        if (ctx.attempt === 1) await gate; // the first worker "hangs", then comes back too late
        await recordEffect.handler(ctx, payload);
      },
    });
    const enqueued = await enqueueJob(db, recordEffect, { key: "crash" }, local);
    if (enqueued.engine !== "local") throw new Error("expected local");

    const crashed = runDueJobs(db, { workerId: "crashed", registry: createJobRegistry([blocking]), leaseMs: 60_000 });
    await expect.poll(async () => (await getJob(enqueued.job.id)).lockedBy).toBe("crashed");
    expect(await getJob(enqueued.job.id)).toMatchObject({ status: "running", attempts: 1 });

    // While the lease is live nobody else may take the job.
    expect(await runDueJobs(db, { workerId: "restarted", registry })).toMatchObject({ claimed: 0 });

    await db.update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(jobs.id, enqueued.job.id));
    expect(await runDueJobs(db, { workerId: "restarted", registry })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await getJob(enqueued.job.id)).toMatchObject({ status: "succeeded", attempts: 2, lockedBy: null });

    // The stale worker finishing late must not overwrite the new owner's result.
    release();
    await crashed;
    expect(await getJob(enqueued.job.id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("renews the lease while a slow handler runs, so no other worker takes the job over", async () => {
    const enqueued = await enqueueJob(db, recordEffect, { key: "slow", delayMs: 1_200 }, local);
    if (enqueued.engine !== "local") throw new Error("expected local");
    const slow = runDueJobs(db, { workerId: "slow", registry, leaseMs: 600 });
    await new Promise((resolve) => setTimeout(resolve, 900)); // past the first lease's end
    expect(await runDueJobs(db, { workerId: "other", registry, leaseMs: 600 })).toMatchObject({ claimed: 0 });
    expect(await slow).toMatchObject({ succeeded: 1 });
    expect(await getJob(enqueued.job.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await effectsFor("slow")).toBe(1);
  });

  it("fails a job whose final attempt's lease expired instead of running it again", async () => {
    const enqueued = await enqueueJob(db, recordEffect, { key: "last" }, local);
    if (enqueued.engine !== "local") throw new Error("expected local");
    await db
      .update(jobs)
      .set({ status: "running", attempts: 3, lockedBy: "gone", lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, enqueued.job.id));

    expect(await runDueJobs(db, { workerId: "w2", registry })).toMatchObject({ claimed: 1, failed: 1 });
    expect(await getJob(enqueued.job.id)).toMatchObject({ status: "failed", attempts: 3, lastError: "lease expired during the final attempt" });
    expect(await effectsFor("last")).toBe(0);
  });
});

describe("concurrent workers", () => {
  let second: DbHandle | undefined;

  afterAll(async () => {
    await second?.close();
  });

  it("run each of N jobs exactly once", async () => {
    // On PostgreSQL the second worker has its own pool, like a second process; PGlite has one connection.
    if (testDb.url) second = await openDb({ url: testDb.url }, { max: 4 });
    const workerDbs = [db, second?.db ?? db];

    const total = 60;
    for (let i = 0; i < total; i += 1) {
      await enqueueJob(db, recordEffect, { key: `job-${i}`, delayMs: 3 }, local);
    }

    const claimedBy = await Promise.all(
      workerDbs.map(async (workerDb, w) => {
        let claimed = 0;
        for (;;) {
          const result = await runDueJobs(workerDb, { workerId: `worker-${w}`, registry, limit: 4 });
          if (result.claimed === 0) return claimed;
          expect(result.succeeded).toBe(result.claimed);
          claimed += result.claimed;
        }
      }),
    );

    expect(claimedBy.reduce((a, b) => a + b, 0)).toBe(total);
    const perKey = rowsOf<{ key: string; n: number }>(
      await db.execute(sql`select key, count(*)::int as n from test_job_effects group by key`),
    );
    expect(perKey).toHaveLength(total);
    expect(perKey.every((row) => row.n === 1)).toBe(true);
    const attempts = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from test_job_attempts`));
    expect(attempts[0]?.n).toBe(total);
    expect(await db.$count(jobs, eq(jobs.status, "succeeded"))).toBe(total);
    expect(await db.$count(jobs, eq(jobs.attempts, 1))).toBe(total);
    console.info(`concurrent workers claimed ${claimedBy.join(" + ")} jobs (${testDb.kind})`);
  });
});

describe("startJobPolling", () => {
  it("runs jobs as they become due and stops after the batch in flight", async () => {
    const stop = startJobPolling(db, { intervalMs: 20, registry, workerId: "poller" });
    try {
      const enqueued = await enqueueJob(db, recordEffect, { key: "polled", delayMs: 50 }, local);
      if (enqueued.engine !== "local") throw new Error("expected local");
      await expect.poll(async () => (await getJob(enqueued.job.id)).status, { timeout: 5_000 }).toBe("running");
    } finally {
      await stop();
    }
    // stop() waited for the running job, so it finished rather than being left mid-lease.
    expect(await db.$count(jobs, eq(jobs.status, "succeeded"))).toBe(1);
    expect(await effectsFor("polled")).toBe(1);

    await enqueueJob(db, recordEffect, { key: "after-stop" }, local);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await db.$count(jobs, eq(jobs.status, "queued"))).toBe(1);
  });
});

describe("startJobScheduler", () => {
  const everyMinute = defineJob({
    name: "every-minute",
    schema: z.object({}),
    schedule: "* * * * *",
    handler: async (ctx) => {
      await ctx.db.execute(sql`insert into test_job_effects (key) values ('every-minute')`);
    },
  });
  const withSchedule = createJobRegistry([recordEffect, everyMinute]);

  it("enqueues every job that has a schedule, once per cron time however often it ticks, and the runner runs it", async () => {
    const stop = startJobScheduler(db, { registry: withSchedule, intervalMs: 10, workerId: "scheduler" });
    try {
      await expect.poll(() => db.$count(jobs, eq(jobs.name, "every-minute")), { timeout: 5_000 }).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 150)); // many more ticks
    } finally {
      await stop();
    }
    const rows = await db.select().from(jobs);
    // Jobs without a schedule are never enqueued by the scheduler.
    expect(rows.every((row) => row.name === "every-minute")).toBe(true);
    // One row per minute boundary crossed during the test (almost always one).
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(2);
    for (const row of rows) {
      expect(row).toMatchObject({ status: "queued", payload: {} });
      expect(row.idempotencyKey).toMatch(/^every-minute:\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);
    }
    expect(new Set(rows.map((row) => row.idempotencyKey)).size).toBe(rows.length);

    expect(await runDueJobs(db, { workerId: "w1", registry: withSchedule })).toMatchObject({ succeeded: rows.length });
    expect(await effectsFor("every-minute")).toBe(rows.length);
  });

  it("does nothing when no job has a schedule", async () => {
    const stop = startJobScheduler(db, { registry, intervalMs: 10 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await stop();
    expect(await db.$count(jobs)).toBe(0);
  });
});
