import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboundEvents, jobs } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import {
  PAYMENTS_ENV,
  createOrganization,
  deliver,
  drainJobs,
} from "@/tests/helpers/payments";
import { billingStateOf, lifecycle, prng, shuffle } from "@/tests/helpers/payment-storm";

let testDb: TestDb;

beforeAll(async () => {
  setEnvForTests(PAYMENTS_ENV);
  testDb = await createTestDb();
});

afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

describe("a storm of payment events", () => {
  it("ends, shuffled, delivered twice, processed concurrently and after a crash, in the state of in-order delivery", async () => {
    const db = testDb.db;
    const ORGS = 20;
    const inOrderOrgs: number[] = [];
    const stormOrgs: number[] = [];
    for (let i = 0; i < ORGS; i += 1) {
      inOrderOrgs.push(await createOrganization(db));
      stormOrgs.push(await createOrganization(db));
    }
    // The same lifecycles (same seed per organization) for both groups, ids prefixed per run.
    const inOrder = inOrderOrgs.flatMap((org, i) => lifecycle("in", org, i, prng(1000 + i)));
    const storm = stormOrgs.flatMap((org, i) => lifecycle("st", org, i, prng(1000 + i)));
    expect(storm.length).toBeGreaterThan(200);

    // Baseline: every event delivered and processed in order, one at a time.
    for (const event of inOrder) {
      expect((await deliver(event)).status).toBe(200);
      await drainJobs(db);
    }

    // Storm: shuffled, 20 % delivered twice; the "process" dies after acknowledging half of them.
    const random = prng(42);
    const deliveries = shuffle([...storm, ...storm.filter(() => random() < 0.2)], random);
    const half = Math.floor(deliveries.length / 2);
    for (const event of deliveries.slice(0, half)) expect((await deliver(event)).status).toBe(200);
    // A worker claims a batch and crashes mid-run: its jobs stay `running` with a lease that expires.
    await runDueJobs(db, { workerId: "doomed", limit: 5 });
    await db.execute(sql`update jobs set status = 'running', locked_by = 'doomed', locked_until = now() - interval '1 second' where id in (select id from jobs where status = 'queued' limit 10)`);
    for (const event of deliveries.slice(half)) expect((await deliver(event)).status).toBe(200);

    // "Restart": a fresh worker runs what is due, 50 jobs at a time, concurrently.
    await drainJobs(db, "after-restart");

    const acknowledged = await db.select().from(inboundEvents).where(inArray(inboundEvents.providerEventId, storm.map((e) => e.id)));
    expect(acknowledged).toHaveLength(storm.length);
    expect(acknowledged.filter((e) => e.status === "received" || e.status === "failed")).toEqual([]);
    const stuck = await db.select().from(jobs).where(inArray(jobs.status, ["queued", "running", "failed"]));
    expect(stuck).toEqual([]);

    const expected = await billingStateOf(testDb.db, inOrderOrgs, ["in", "st"]);
    expect(expected.every(Boolean)).toBe(true);
    expect(await billingStateOf(testDb.db, stormOrgs, ["in", "st"])).toEqual(expected);
  }, 240_000);
});
