import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingRecords, inboundEvents, jobs } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import {
  PAYMENTS_ENV,
  PRICES,
  checkoutObject,
  createOrganization,
  deliver,
  drainJobs,
  invoiceObject,
  stripeEvent,
  subscriptionObject,
  type StripeTestEvent,
} from "@/tests/helpers/payments";

let testDb: TestDb;

beforeAll(async () => {
  setEnvForTests(PAYMENTS_ENV);
  testDb = await createTestDb();
});

afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

/** Deterministic PRNG so a failure reproduces (mulberry32). */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A realistic subscription lifecycle per organization, in the order Stripe emits it: several events
 * share a second (checkout, subscription, invoice), renewals, failed payments, plan changes and
 * sometimes a cancellation. Some invoices carry no organization metadata, so they can only be routed
 * once the customer is linked (they retry until then).
 */
function lifecycle(run: string, org: number, index: number, random: () => number): StripeTestEvent[] {
  const customer = `cus_${run}_${index}`;
  const sub = `sub_${run}_${index}`;
  const base = 1_900_000_000 + index * 10;
  const events: StripeTestEvent[] = [];
  let seq = 0;
  const add = (type: string, created: number, object: Record<string, unknown>) =>
    events.push(stripeEvent(type, created, object, `evt_${run}_${String(index).padStart(3, "0")}_${String(seq++).padStart(3, "0")}`));
  const prices = [PRICES.starter, PRICES.pro, PRICES.enterprise];
  let price: string = prices[Math.floor(random() * 3)]!;
  let periodEnd = base + 30 * 86400;
  const meta = () => (random() < 0.7 ? org : undefined);

  add("customer.subscription.created", base, subscriptionObject({ id: sub, customer, status: "incomplete", price, periodEnd, organizationId: org }));
  add("checkout.session.completed", base, checkoutObject({ customer, subscription: sub, organizationId: org }));
  add("invoice.paid", base, invoiceObject({ customer, subscription: sub, periodEnd, organizationId: meta() }));
  add("customer.subscription.updated", base, subscriptionObject({ id: sub, customer, status: "active", price, periodEnd, organizationId: org }));
  let t = base;
  const months = 3 + Math.floor(random() * 8);
  for (let m = 0; m < months; m += 1) {
    t += 1000 + Math.floor(random() * 1000);
    const roll = random();
    if (roll < 0.5) {
      periodEnd += 30 * 86400;
      add("invoice.paid", t, invoiceObject({ customer, subscription: sub, periodEnd, organizationId: meta() }));
      add("customer.subscription.updated", t, subscriptionObject({ id: sub, customer, status: "active", price, periodEnd, organizationId: org }));
    } else if (roll < 0.75) {
      add("invoice.payment_failed", t, invoiceObject({ customer, subscription: sub, organizationId: meta() }));
      add("customer.subscription.updated", t, subscriptionObject({ id: sub, customer, status: "past_due", price, periodEnd, organizationId: org }));
    } else {
      price = prices[Math.floor(random() * 3)]!;
      add("customer.subscription.updated", t, subscriptionObject({ id: sub, customer, status: "active", price, periodEnd, organizationId: org }));
    }
  }
  if (random() < 0.4) {
    add("customer.subscription.deleted", t + 500, subscriptionObject({ id: sub, customer, status: "canceled", price, periodEnd, organizationId: org }));
  }
  return events;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function stateOf(organizationIds: number[]) {
  const rows = await testDb.db.select().from(billingRecords).where(inArray(billingRecords.organizationId, organizationIds));
  return organizationIds.map((id) => {
    const r = rows.find((row) => row.organizationId === id);
    return r && {
      status: r.status,
      planTier: r.planTier,
      currentPeriodEnd: r.currentPeriodEnd?.toISOString() ?? null,
      stripeSubscriptionId: r.stripeSubscriptionId?.replace(/_(in|st)_/, "_"),
      stripeCustomerId: r.stripeCustomerId?.replace(/_(in|st)_/, "_"),
      lastEventCreatedAt: r.lastEventCreatedAt?.toISOString(),
    };
  });
}

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

    const expected = await stateOf(inOrderOrgs);
    expect(expected.every(Boolean)).toBe(true);
    expect(await stateOf(stormOrgs)).toEqual(expected);
  }, 240_000);
});
