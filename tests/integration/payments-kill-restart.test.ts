import { spawn, type ChildProcess } from "node:child_process";
import { and, eq, inArray, like, sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboundEvents, jobs } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { PROCESS_PAYMENT_EVENT_JOB } from "@/lib/payments/process-payment-event-job";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import {
  PAYMENTS_ENV,
  WEBHOOK_SECRET,
  createOrganization,
  deliver,
  drainJobs,
  type StripeTestEvent,
} from "@/tests/helpers/payments";
import { billingStateOf, lifecycle, prng, shuffle } from "@/tests/helpers/payment-storm";

// Issue 5: "the app killed mid-storm and restarted with no acknowledged event lost", with a real
// process kill. The app (the real payments route + its job worker, tests/fakes/webhook-app) runs as a
// child process; it is SIGKILLed while webhook requests are in flight and a second one is started on
// the same database. PGlite has a single owner process, so this needs the PostgreSQL server named by
// TEST_DATABASE_URL and is skipped without it.

const APP_SCRIPT = "tests/fakes/webhook-app/serve-payments.ts";
const CONCURRENCY = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type App = { child: ChildProcess; port: number; pid: number };

const children: ChildProcess[] = [];

function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stopApp(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  if (!(await exited(child, 5_000))) {
    child.kill("SIGKILL");
    await exited(child, 5_000);
  }
}

/** Starts the app as a child process on the test database; resolves once it listens. */
async function startApp(databaseUrl: string): Promise<App> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("INNGEST_")) delete env[key];
  const child = spawn(process.execPath, ["--import", "tsx", APP_SCRIPT], {
    cwd: process.cwd(),
    env: {
      ...env,
      ...PAYMENTS_ENV,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: "4",
      AUTH_SECRET: process.env.AUTH_SECRET ?? "test-auth-secret-that-is-long-enough-0123456789",
      JOBS_POLL_INTERVAL_MS: "100",
      LOG_LEVEL: "silent",
      PORT: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    return await new Promise<App>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`app did not start within 30 s: ${stderr}`)), 30_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /^ready (\d+) (\d+)$/m.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve({ child, port: Number(match[1]), pid: Number(match[2]) });
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`app exited (${code ?? signal}) before it was ready: ${stderr}`));
      });
    });
  } catch (error) {
    await stopApp(child, "SIGKILL");
    throw error;
  }
}

type Delivery = { status: number; duplicate?: boolean };

/** One webhook delivery as Stripe makes it: freshly signed, over HTTP; a network error is status 0. */
async function send(port: number, event: StripeTestEvent): Promise<Delivery> {
  const body = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET });
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/webhooks/payments`, {
      method: "POST",
      headers: { "content-type": "application/json", "payments-signature": signature },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let duplicate: boolean | undefined;
    try {
      duplicate = (JSON.parse(text) as { duplicate?: boolean }).duplicate === true;
    } catch {
      duplicate = undefined;
    }
    return { status: response.status, duplicate };
  } catch {
    return { status: 0 };
  }
}

const is2xx = (d: Delivery) => d.status >= 200 && d.status < 300;

describe.skipIf(!process.env.TEST_DATABASE_URL)("payments webhook app SIGKILLed mid-storm and restarted", () => {
  let testDb: TestDb;

  beforeAll(async () => {
    setEnvForTests(PAYMENTS_ENV);
    testDb = await createTestDb();
  });

  afterAll(async () => {
    await Promise.all(children.map((child) => stopApp(child, "SIGKILL")));
    setEnvForTests({});
    await testDb?.cleanup();
  }, 30_000);

  it("loses no acknowledged event and ends in the state of in-order delivery", async () => {
    const db = testDb.db;
    const databaseUrl = testDb.url!;
    const ORGS = 10;
    const inOrderOrgs: number[] = [];
    const stormOrgs: number[] = [];
    for (let i = 0; i < ORGS; i += 1) {
      inOrderOrgs.push(await createOrganization(db));
      stormOrgs.push(await createOrganization(db));
    }
    const inOrder = inOrderOrgs.flatMap((org, i) => lifecycle("in", org, i, prng(2000 + i)));
    const storm = stormOrgs.flatMap((org, i) => lifecycle("kr", org, i, prng(2000 + i)));
    const stormIds = storm.map((e) => e.id);
    expect(storm.length).toBeGreaterThanOrEqual(120);

    // Baseline, in this process: every event delivered and processed in order, one at a time.
    for (const event of inOrder) {
      expect((await deliver(event)).status).toBe(200);
      await drainJobs(db);
    }

    // Storm against app A: shuffled, ~20 % delivered twice, CONCURRENCY requests in flight. Once a
    // third of the events are acknowledged, A is SIGKILLed from inside the send loop, so the other
    // senders' requests are still in flight (and its worker is likely mid-job).
    const random = prng(7);
    const deliveries = shuffle([...storm, ...storm.filter(() => random() < 0.2)], random);
    const a = await startApp(databaseUrl);
    const ackedByA = new Set<string>();
    const killAt = Math.ceil(storm.length / 3);
    let next = 0;
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;
    const senderA = async () => {
      while (!killed && next < deliveries.length) {
        const event = deliveries[next++]!;
        inFlight += 1;
        const delivery = await send(a.port, event);
        inFlight -= 1;
        if (is2xx(delivery)) ackedByA.add(event.id);
        if (!killed && ackedByA.size >= killAt) {
          killed = true;
          inFlightAtKill = inFlight;
          a.child.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, senderA));
    expect(killed).toBe(true);
    expect(await exited(a.child, 5_000)).toBe(true);
    expect(a.child.signalCode).toBe("SIGKILL");
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(ackedByA.size).toBeLessThan(storm.length);

    // A's claimed jobs keep their 5-minute lease; skip that wait rather than sleep through it.
    await db
      .update(jobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(and(eq(jobs.status, "running"), like(jobs.lockedBy, `%:${a.pid}:%`)));

    // Before anything else runs: every event A acknowledged was already durable when it died.
    const storedByA = await db
      .select({ providerEventId: inboundEvents.providerEventId })
      .from(inboundEvents)
      .where(and(eq(inboundEvents.source, "payments"), inArray(inboundEvents.providerEventId, stormIds)));
    const durable = new Set(storedByA.map((e) => e.providerEventId));
    expect([...ackedByA].filter((id) => !durable.has(id))).toEqual([]);

    // App B on the same database. Redeliver, as Stripe would, everything A did not acknowledge
    // (errors and non-2xx included) plus some already-acknowledged events.
    const b = await startApp(databaseUrl);
    const redeliver = shuffle(
      storm.filter((e) => !ackedByA.has(e.id) || random() < 0.3),
      random,
    );
    const resent = new Map<string, Delivery>();
    let cursor = 0;
    const senderB = async () => {
      while (cursor < redeliver.length) {
        const event = redeliver[cursor++]!;
        resent.set(event.id, await send(b.port, event));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, senderB));
    expect([...resent.values()].filter((d) => !is2xx(d))).toEqual([]);
    // An event A acknowledged is already stored: B reports the redelivery as a duplicate.
    expect([...resent].filter(([id, d]) => ackedByA.has(id) && d.duplicate !== true)).toEqual([]);

    // Wait (bounded) until B's worker has run everything; retries' backoff is moved to now as in
    // drainJobs, since invoices that arrived before their checkout retry until the customer is linked.
    const deadline = Date.now() + 30_000;
    let pending = -1;
    while (Date.now() < deadline) {
      await db.update(jobs).set({ runAt: sql`now()` }).where(and(eq(jobs.status, "queued"), sql`${jobs.runAt} > now()`));
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(jobs)
        .where(inArray(jobs.status, ["queued", "running"]));
      pending = row?.count ?? -1;
      if (pending === 0) break;
      await sleep(200);
    }
    await stopApp(b.child, "SIGTERM");
    expect(pending).toBe(0);

    // Every event acknowledged with a 2xx (by A before the kill, or by B) is stored once and processed.
    const acknowledged = new Set([...ackedByA, ...[...resent].filter(([, d]) => is2xx(d)).map(([id]) => id)]);
    expect([...acknowledged].sort()).toEqual([...stormIds].sort());
    const stored = await db
      .select({ providerEventId: inboundEvents.providerEventId, status: inboundEvents.status })
      .from(inboundEvents)
      .where(and(eq(inboundEvents.source, "payments"), inArray(inboundEvents.providerEventId, stormIds)));
    expect(stored.map((e) => e.providerEventId).sort()).toEqual([...stormIds].sort());
    expect(stored.filter((e) => e.status !== "processed" && e.status !== "ignored")).toEqual([]);

    // One job per stored event despite redeliveries, none failed.
    const [paymentJobs] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(jobs)
      .where(eq(jobs.name, PROCESS_PAYMENT_EVENT_JOB));
    expect(paymentJobs?.count).toBe(inOrder.length + storm.length);
    expect(await db.select().from(jobs).where(eq(jobs.status, "failed"))).toEqual([]);

    const expected = await billingStateOf(db, inOrderOrgs, ["in", "kr"]);
    expect(expected.every(Boolean)).toBe(true);
    expect(await billingStateOf(db, stormOrgs, ["in", "kr"])).toEqual(expected);
  }, 60_000);
});
