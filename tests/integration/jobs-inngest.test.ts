import { createHash } from "node:crypto";
import { InngestTestEngine, mockCtx } from "@inngest/test";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Db } from "@/db/client";
import { jobs } from "@/db/schema/jobs";
import { createInngestClient } from "@/lib/jobs/inngest-client";
import { createCronFunctions, createJobFunction, createJobFunctions } from "@/inngest/functions";
import { parseEnv, setEnvForTests } from "@/lib/env";
import { defineJob } from "@/lib/jobs/define-job";
import { dispatchQueuedJobs } from "@/lib/jobs/dispatch-queued-jobs";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { jobRegistry } from "@/lib/job-runner/registry";
import { createTestDb, type TestDb } from "../helpers/db";

// A test-only job with two steps: the first writes a row, the second fails on the first attempt.
const recordThenDeliver = defineJob({
  name: "record-then-deliver",
  schema: z.object({ key: z.string(), failFirstDelivery: z.boolean().default(false) }),
  maxAttempts: 4,
  handler: async (ctx, payload) => {
    const recorded = await ctx.step("record", async () => {
      await ctx.db.execute(sql`insert into test_inngest_effects (key, kind, attempt) values (${payload.key}, 'record', ${ctx.attempt})`);
      return { recordedOnAttempt: ctx.attempt };
    });
    await ctx.step("deliver", async () => {
      if (payload.failFirstDelivery && ctx.attempt === 1) throw new Error("vault answered 502");
      await ctx.db.execute(
        sql`insert into test_inngest_effects (key, kind, attempt) values (${payload.key}, 'deliver', ${recorded.recordedOnAttempt})`,
      );
    });
  },
});
const registry = createJobRegistry([recordThenDeliver]);
const client = createInngestClient(parseEnv({ ...process.env, INNGEST_DEV: "1" }));
const fn = createJobFunction(client, recordThenDeliver);

let testDb: TestDb;
let db: Db;

beforeAll(async () => {
  testDb = await createTestDb(); // installs the handle getDb() returns inside Inngest functions
  db = testDb.db;
  await db.execute(sql`create table test_inngest_effects (key text not null, kind text not null, attempt integer not null)`);
});

afterAll(async () => {
  await testDb.cleanup();
});

beforeEach(async () => {
  await db.execute(sql`truncate jobs, test_inngest_effects`);
});

afterEach(() => {
  setEnvForTests({});
});

type Effect = { key: string; kind: string; attempt: number };

async function effects(key: string): Promise<Effect[]> {
  const result: unknown = await db.execute(sql`select key, kind, attempt from test_inngest_effects where key = ${key} order by kind`);
  return Array.isArray(result) ? (result as Effect[]) : (result as { rows: Effect[] }).rows;
}

function hashedStepId(id: string): string {
  return createHash("sha1").update(id).digest("hex");
}

function event(data: Record<string, unknown>) {
  return [{ name: "jobs/record-then-deliver", data }] as [{ name: string; data: Record<string, unknown> }];
}

describe("job handlers under Inngest", () => {
  it("runs the handler's steps as step.run and writes through the app database", async () => {
    const t = new InngestTestEngine({ function: fn, events: event({ key: "inngest-ok" }) });
    const { error, ctx } = await t.execute();
    expect(error).toBeUndefined();
    expect(ctx.step.run).toHaveBeenCalledTimes(2);
    expect(await effects("inngest-ok")).toEqual([
      { key: "inngest-ok", kind: "deliver", attempt: 1 },
      { key: "inngest-ok", kind: "record", attempt: 1 },
    ]);
  });

  it("on retry replays the memoized step instead of repeating its side effect", async () => {
    const t = new InngestTestEngine({ function: fn, events: event({ key: "retry", failFirstDelivery: true }) });

    const first = await t.execute();
    expect(first.error).toMatchObject({ message: "vault answered 502" });
    // The engine keys step state by the hashed step id, as Inngest does.
    const recordOutput = await first.state[hashedStepId("record")];
    expect(recordOutput).toEqual({ recordedOnAttempt: 1 });
    expect(await effects("retry")).toEqual([{ key: "retry", kind: "record", attempt: 1 }]);

    // Inngest retries the run with attempt 1 (zero-based) and the successful "record" step memoized.
    // (@inngest/test reads transformCtx from the engine's own options, hence a new engine.)
    const retry = await new InngestTestEngine({
      function: fn,
      events: event({ key: "retry", failFirstDelivery: true }),
      steps: [{ id: "record", handler: () => recordOutput }],
      transformCtx: (raw) => ({ ...mockCtx(raw), attempt: 1 }),
    }).execute();
    expect(retry.error).toBeUndefined();
    expect(await effects("retry")).toEqual([
      { key: "retry", kind: "deliver", attempt: 1 },
      { key: "retry", kind: "record", attempt: 1 },
    ]);
  });

  it("fails without retrying when the event payload does not match the job's schema", async () => {
    const t = new InngestTestEngine({ function: fn, events: event({ key: 7 }) });
    const { error } = await t.execute();
    expect(error).toMatchObject({ name: "NonRetriableError" });
    expect(String((error as { message?: string }).message)).toContain('Invalid payload for job "record-then-deliver"');
    expect(await effects("7")).toEqual([]);
  });

  it("registers one function per job, triggered by jobs/<name>, with maxAttempts - 1 retries", () => {
    const [only, ...rest] = createJobFunctions(client, registry);
    expect(rest).toHaveLength(0);
    expect(only?.opts).toMatchObject({ id: "job-record-then-deliver", retries: 3, triggers: [{ event: "jobs/record-then-deliver" }] });
  });
});

describe("enqueueJob with Inngest configured: the jobs table is an outbox", () => {
  type Sent = { url: string; body: unknown };
  function fakeInngest(answer: () => Response) {
    const requests: Sent[] = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      requests.push({ url: String(input), body: JSON.parse(String(init?.body)) });
      return answer();
    };
    const env = setEnvForTests({ INNGEST_EVENT_KEY: "test-event-key", INNGEST_BASE_URL: "http://inngest.test:8288" });
    return { requests, sender: createInngestClient(env, { fetch: fakeFetch }) };
  }
  const accepted = () => Response.json({ ids: ["01JOBEVENT"], status: 200 });

  it("writes a queued row; the relay sends jobs/<name> keyed by the idempotency key and marks it dispatched", async () => {
    const { requests, sender } = fakeInngest(accepted);
    const runAt = new Date(Date.now() + 60_000);
    const enqueued = await enqueueJob(db, recordThenDeliver, { key: "sent" }, { idempotencyKey: "evt_42", runAt });
    expect(enqueued).toMatchObject({ engine: "inngest", created: true, job: { status: "queued" } });
    expect(requests).toHaveLength(0);

    expect(await dispatchQueuedJobs(db, { sender, registry })).toBe(1);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe("http://inngest.test:8288/e/test-event-key");
    expect(requests[0]!.body).toEqual([
      expect.objectContaining({
        name: "jobs/record-then-deliver",
        id: "record-then-deliver:evt_42",
        // The row's id only: the payload stays in the database.
        data: { jobId: enqueued.job.id },
        ts: runAt.getTime(),
      }),
    ]);
    const [row] = await db.select().from(jobs);
    expect(row).toMatchObject({ status: "dispatched" });
    expect(await dispatchQueuedJobs(db, { sender, registry })).toBe(0);
    expect(requests).toHaveLength(1);
  });

  it("keys a job without an idempotency key by its row id", async () => {
    const { requests, sender } = fakeInngest(accepted);
    const { job } = await enqueueJob(db, recordThenDeliver, { key: "k" });
    await dispatchQueuedJobs(db, { sender, registry });
    expect(requests[0]!.body).toEqual([expect.objectContaining({ id: `record-then-deliver:${job.id}` })]);
  });

  it("a rolled-back transaction never reaches Inngest", async () => {
    const { requests, sender } = fakeInngest(accepted);
    await expect(
      db.transaction(async (tx) => {
        await enqueueJob(tx, recordThenDeliver, { key: "rolled-back" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await dispatchQueuedJobs(db, { sender, registry })).toBe(0);
    expect(requests).toHaveLength(0);
  });

  it("a failed send leaves the job queued for the next pass, with the reason on the row", async () => {
    let up = false;
    const { requests, sender } = fakeInngest(() => (up ? accepted() : new Response("unavailable", { status: 503 })));
    await enqueueJob(db, recordThenDeliver, { key: "retry" }, { idempotencyKey: "evt_7" });
    expect(await dispatchQueuedJobs(db, { sender, registry })).toBe(0);
    const [row] = await db.select().from(jobs);
    expect(row).toMatchObject({ status: "queued" });
    expect(row!.lastError).toMatch(/^event not accepted/);
    up = true;
    expect(await dispatchQueuedJobs(db, { sender, registry })).toBe(1);
    const ids = requests.map((r) => (r.body as { id: string }[])[0]!.id);
    expect(new Set(ids)).toEqual(new Set(["record-then-deliver:evt_7"]));
    expect((await db.select().from(jobs))[0]).toMatchObject({ status: "dispatched", lastError: null });
  });

  it("sends each event on its own: one rejected event never blocks the jobs behind it", async () => {
    // Inngest refuses one event (e.g. over its size limit) and accepts the others.
    const requests: { id: string }[][] = [];
    const env = setEnvForTests({ INNGEST_EVENT_KEY: "test-event-key", INNGEST_BASE_URL: "http://inngest.test:8288" });
    const sender = createInngestClient(env, {
      fetch: async (_input, init) => {
        const body = JSON.parse(String(init?.body)) as { id: string }[];
        requests.push(body);
        return body.some((e) => e.id.endsWith(":poison"))
          ? new Response(JSON.stringify({ error: "event too large" }), { status: 413 })
          : accepted();
      },
    });
    await enqueueJob(db, recordThenDeliver, { key: "first" }, { idempotencyKey: "poison" });
    await enqueueJob(db, recordThenDeliver, { key: "second" }, { idempotencyKey: "ok-1" });
    await enqueueJob(db, recordThenDeliver, { key: "third" }, { idempotencyKey: "ok-2" });

    for (let pass = 0; pass < 2; pass++) expect(await dispatchQueuedJobs(db, { sender, registry })).toBe(pass === 0 ? 2 : 0);
    expect(requests.every((body) => body.length === 1)).toBe(true);
    const rows = await db.select().from(jobs);
    const byKey = new Map(rows.map((r) => [r.idempotencyKey, r]));
    expect(byKey.get("poison")).toMatchObject({ status: "queued" });
    expect(byKey.get("poison")!.lastError).toMatch(/event not accepted/);
    expect(byKey.get("ok-1")).toMatchObject({ status: "dispatched" });
    expect(byKey.get("ok-2")).toMatchObject({ status: "dispatched" });
  });

  it("the function reads the payload from the row the event names, and refuses an unknown job id", async () => {
    const { job } = await enqueueJob(db, recordThenDeliver, { key: "by-id" });
    const t = new InngestTestEngine({ function: fn, events: event({ jobId: job.id }) });
    const { error } = await t.execute();
    expect(error).toBeUndefined();
    expect(await effects("by-id")).toHaveLength(2);

    const missing = await new InngestTestEngine({ function: fn, events: event({ jobId: "00000000-0000-4000-8000-000000000000" }) }).execute();
    expect(missing.error).toMatchObject({ name: "NonRetriableError" });
  });

  it("validates the payload before anything is written", async () => {
    // @ts-expect-error `key` is required by the job's schema
    await expect(enqueueJob(db, recordThenDeliver, {}, { engine: "inngest" })).rejects.toThrow(
      /Invalid payload/,
    );
    expect(await db.$count(jobs)).toBe(0);
  });
});

describe("scheduled jobs under Inngest", () => {
  const hourly = defineJob({ name: "tidy-up", schema: z.object({}), schedule: "7 * * * *", handler: async () => {} });
  const scheduledRegistry = createJobRegistry([recordThenDeliver, hourly]);

  it("creates one cron function per job with a schedule, after the outbox relay", () => {
    const functions = createCronFunctions(client, scheduledRegistry);
    expect(functions.map((f) => f.opts)).toEqual([
      expect.objectContaining({ id: "jobs-outbox-dispatch", triggers: [{ cron: "* * * * *" }] }),
      expect.objectContaining({ id: "schedule-tidy-up", triggers: [{ cron: "7 * * * *" }] }),
    ]);
  });

  it("the cron function enqueues the job for its latest cron time, once", async () => {
    const [, schedule] = createCronFunctions(client, scheduledRegistry);
    const events = [{ name: "inngest/scheduled.timer", data: { cron: "7 * * * *" } }] as [{ name: string; data: Record<string, unknown> }];
    const first = await new InngestTestEngine({ function: schedule!, events }).execute();
    const second = await new InngestTestEngine({ function: schedule!, events }).execute();
    expect(first.error).toBeUndefined();
    expect(first.result).toMatchObject({ created: true });
    expect(second.result).toEqual({ ...(first.result as object), created: false });
    const rows = await db.select().from(jobs);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "tidy-up", status: "queued", payload: {} });
    expect(rows[0]!.idempotencyKey).toMatch(/^tidy-up:\d{4}-\d\d-\d\dT\d\d:07:00\.000Z$/);
  });

  it("keys the job by the time the cron fired, not the time the function ran", async () => {
    const [, schedule] = createCronFunctions(client, scheduledRegistry);
    const fired = Date.parse("2031-05-06T08:09:10.000Z");
    const events = [{ name: "inngest/scheduled.timer", data: { cron: "7 * * * *" }, ts: fired }] as [{ name: string; data: Record<string, unknown>; ts: number }];
    const { error } = await new InngestTestEngine({ function: schedule!, events }).execute();
    expect(error).toBeUndefined();
    const [row] = await db.select().from(jobs);
    expect(row!.idempotencyKey).toBe("tidy-up:2031-05-06T08:07:00.000Z");
  });
});

describe("/api/inngest", () => {
  it("answers 503 JSON when Inngest is not configured, and serves the SDK endpoint when it is", async () => {
    setEnvForTests({ INNGEST_EVENT_KEY: "", INNGEST_DEV: "", INNGEST_BASE_URL: "" });
    const route = await import("@/app/api/inngest/route");
    for (const method of ["GET", "POST", "PUT"] as const) {
      const response = await route[method](new NextRequest("http://localhost:3000/api/inngest", { method }), {});
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: "Inngest is not configured; jobs run on the local job runner." });
    }

    setEnvForTests({ INNGEST_DEV: "1" });
    const response = await route.GET(new NextRequest("http://localhost:3000/api/inngest"), {});
    expect(response.status).toBe(200);
    // One function per registered job, plus the cron functions: the outbox relay and one per scheduled job;
    // Inngest serves a job's failure handler (`onFinalFailure`, e.g. the scan job's) as a function of its own.
    const scheduled = [...jobRegistry.values()].filter((job) => job.schedule !== undefined);
    expect(scheduled.map((job) => job.name)).toContain("expire-signings");
    const failureHandlers = [...jobRegistry.values()].filter((job) => job.onFinalFailure !== undefined);
    expect(failureHandlers.map((job) => job.name)).toContain("process-scanback-scan");
    expect(await response.json()).toMatchObject({ function_count: jobRegistry.size + 1 + scheduled.length + failureHandlers.length, mode: "dev" });
  });
});
