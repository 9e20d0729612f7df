import { InngestTestEngine } from "@inngest/test";
import { and, eq, inArray, like } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Db, type DbHandle } from "@/db/client";
import { auditLog, jobs, organizations, packageSigners, signatureRequests, signingPackages, users, type SigningStatus } from "@/db/schema";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { createInngestClient } from "@/lib/jobs/inngest-client";
import { createScheduleFunction } from "@/inngest/functions";
import { parseEnv, setEnvForTests } from "@/lib/env";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { isScheduledJob } from "@/lib/jobs/define-job";
import { enqueueScheduledJob } from "@/lib/jobs/enqueue-scheduled-job";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { startJobWorker } from "@/lib/job-runner/start-job-worker";
import { expireSignings } from "@/lib/signings/expire-signings";
import { EXPIRE_SIGNINGS_JOB, expireSigningsJob } from "@/lib/signings/expire-signings-job";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, createUser } from "../helpers/fixtures";
import { as, BASE, createReadyDraft, loadManagerWorld } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";

// The expiry sweep (sent|in_progress → expired, docs/signing-api.md) on PGlite, or on PostgreSQL when
// TEST_DATABASE_URL is set — there also with two sweepers on separate connection pools.

const HOUR = 3_600_000;
const past = () => new Date(Date.now() - HOUR);
const future = () => new Date(Date.now() + HOUR);

let testDb: TestDb;
let db: Db;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;
let managerId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  world = await loadManagerWorld(db);
  managerId = (await db.select().from(users).where(eq(users.email, "manager@demo.local")))[0]!.id;
});
afterAll(() => testDb.cleanup());
afterEach(() => {
  setEnvForTests({});
});

let counter = 0;
const uniqueEmail = () => `expiry-${++counter}@demo.local`;

/** A package in `status` with one signer, created by manager@ unless `creator: null`. */
async function pkg(status: SigningStatus, expiresAt: Date | null, options: { creator?: string | null } = {}) {
  const fixture = await createSignerPackage(db, { location: world.austin, status, title: `Expiry ${++counter}`, signers: [{ email: uniqueEmail() }] });
  await db
    .update(signingPackages)
    .set({ expiresAt, createdByUserId: options.creator === undefined ? managerId : options.creator })
    .where(eq(signingPackages.id, fixture.id));
  return fixture;
}

async function packageRow(id: string) {
  return (await db.select().from(signingPackages).where(eq(signingPackages.id, id)))[0]!;
}

async function expiryAudit(ids: string[]) {
  return db.select().from(auditLog).where(and(inArray(auditLog.packageId, ids), eq(auditLog.action, "signing.expired")));
}

async function expiryEmails(ids: string[]) {
  return db.select().from(jobs).where(and(eq(jobs.name, "send-email"), inArray(jobs.idempotencyKey, ids.map((id) => `signing-expired:${id}`))));
}

describe("expireSignings", () => {
  it("expires sent and in-progress packages past their deadline, with one audit entry and one email each", async () => {
    const sent = await pkg("sent", past());
    const inProgress = await pkg("in_progress", past());
    const orphan = await pkg("sent", past(), { creator: null });
    const before = await packageRow(sent.id);

    const expired = await expireSignings(db);

    expect(expired.sort()).toEqual([sent.id, inProgress.id, orphan.id].sort());
    for (const { id } of [sent, inProgress, orphan]) {
      const row = await packageRow(id);
      expect(row.status).toBe("expired");
      expect(await verifyAuditChain(db, { packageId: id })).toEqual({ verified: true, brokenAt: null });
    }
    expect((await packageRow(sent.id)).updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());

    const audit = await expiryAudit([sent.id, inProgress.id, orphan.id]);
    expect(audit).toHaveLength(3);
    const sentEntry = audit.find((e) => e.packageId === sent.id)!;
    expect(sentEntry).toMatchObject({ actorUserId: null, entityType: "signing_package", entityId: sent.id, ipAddress: null });
    expect(sentEntry.before).toMatchObject({ status: "sent" });
    expect(sentEntry.after).toMatchObject({ status: "expired", notifiedUserIds: [managerId] });
    expect(audit.find((e) => e.packageId === inProgress.id)!.before).toMatchObject({ status: "in_progress" });
    expect(audit.find((e) => e.packageId === orphan.id)!.after).toMatchObject({ notifiedUserIds: [] });

    // The creator is told; a package without a creator expires without mail.
    const emails = await expiryEmails([sent.id, inProgress.id, orphan.id]);
    expect(emails.map((j) => j.idempotencyKey).sort()).toEqual([`signing-expired:${sent.id}`, `signing-expired:${inProgress.id}`].sort());
    expect(emails.find((j) => j.idempotencyKey === `signing-expired:${sent.id}`)!.payload).toMatchObject({
      to: "manager@demo.local",
      subject: `Expired: ${before.title}`,
      text: expect.stringContaining(`"${before.title}" expired on ${before.expiresAt!.toISOString()}`),
    });

    // Signers and signature requests keep what they were at the deadline.
    const [signer] = await db.select().from(packageSigners).where(eq(packageSigners.packageId, sent.id));
    expect(signer!.status).toBe("notified");
    const requests = await db.select().from(signatureRequests).where(eq(signatureRequests.packageId, sent.id));
    expect(requests.map((r) => r.status)).toEqual(["pending"]);
  });

  it("leaves packages that are not due or not open untouched", async () => {
    const untouched = [
      await pkg("sent", future()),
      await pkg("in_progress", future()),
      await pkg("sent", null),
      await pkg("draft", past()),
      await pkg("completed", past()),
      await pkg("cancelled", past()),
      await pkg("declined", past()),
    ];
    const before = await Promise.all(untouched.map((p) => packageRow(p.id)));
    const audit = await Promise.all(untouched.map(async (p) => (await auditEntriesFor(db, p.id)).length));

    expect(await expireSignings(db)).toEqual([]);

    expect(await Promise.all(untouched.map((p) => packageRow(p.id)))).toEqual(before);
    expect(await Promise.all(untouched.map(async (p) => (await auditEntriesFor(db, p.id)).length))).toEqual(audit);
    expect(await expiryEmails(untouched.map((p) => p.id))).toEqual([]);
  });

  it("treats the deadline itself as passed and honours `now` and `limit`", async () => {
    // Earlier than every other open package's deadline, so `now` picks exactly these two.
    const at = new Date(Date.now() - 10 * HOUR);
    const first = await pkg("sent", at);
    const second = await pkg("sent", new Date(at.getTime() + 1));

    expect(await expireSignings(db, { now: new Date(at.getTime() - 1) })).toEqual([]);
    expect(await expireSignings(db, { now: new Date(at.getTime() + 1), limit: 1 })).toEqual([first.id]);
    expect(await expireSignings(db, { now: new Date(at.getTime() + 1) })).toEqual([second.id]);
  });

  it("expires each package once when swept again", async () => {
    const packages = [await pkg("sent", past()), await pkg("in_progress", past())];
    const ids = packages.map((p) => p.id);
    expect((await expireSignings(db)).sort()).toEqual([...ids].sort());
    const jobsAfterFirst = await db.$count(jobs);

    expect(await expireSignings(db)).toEqual([]);

    expect(await expiryAudit(ids)).toHaveLength(2);
    expect(await db.$count(jobs)).toBe(jobsAfterFirst);
  });

  it("expires the others when one package fails, then throws so the job retries", async () => {
    const broken = await createUser(db, `not-an-email-${++counter}`);
    const bad = await pkg("sent", new Date(Date.now() - 3 * HOUR), { creator: broken.id });
    const good = await pkg("sent", past());
    try {
      await expect(expireSignings(db)).rejects.toThrow(`Could not expire 1 signing package(s) (${bad.id}); expired 1.`);
      expect((await packageRow(good.id)).status).toBe("expired");
      expect((await packageRow(bad.id)).status).toBe("sent");
      expect(await expiryAudit([bad.id])).toEqual([]);
    } finally {
      await db.update(users).set({ email: `fixed-${counter}@demo.local` }).where(eq(users.id, broken.id));
    }
    expect(await expireSignings(db)).toEqual([bad.id]);
  });

  it("two concurrent sweepers expire each package exactly once", async () => {
    const packages = await Promise.all(
      Array.from({ length: 12 }, (_, i) => pkg(i % 2 ? "sent" : "in_progress", new Date(Date.now() - HOUR - i * 1000))),
    );
    const ids = packages.map((p) => p.id).sort();
    // PostgreSQL: a second pool, so the two sweeps really overlap. PGlite has one connection.
    let second: DbHandle | undefined;
    if (testDb.url) second = await openDb({ url: testDb.url }, { max: 4 });
    try {
      const results = await Promise.all([expireSignings(db, { limit: 50 }), expireSignings(second?.db ?? db, { limit: 50 })]);
      const all = results.flat().sort();
      expect(all).toEqual(ids);
      expect(new Set(all).size).toBe(all.length);
    } finally {
      await second?.close();
    }
    const audit = await expiryAudit(ids);
    expect(audit.map((e) => e.packageId).sort()).toEqual(ids);
    expect((await expiryEmails(ids)).map((j) => j.idempotencyKey).sort()).toEqual(ids.map((id) => `signing-expired:${id}`).sort());
    for (const id of ids) {
      expect((await packageRow(id)).status).toBe("expired");
      expect(await verifyAuditChain(db, { packageId: id })).toEqual({ verified: true, brokenAt: null });
    }
  });
});

describe("signing an expired package", () => {
  it("answers 409 through the signer API, before and after the sweep", async () => {
    const fixture = await pkg("sent", past());
    const signer = fixture.signers[0]!;
    const sign = async () =>
      callApi(`/v1/signing/signer/signings/${fixture.id}/documents/${fixture.documents[0]!.id}/esignatures`, {
        method: "POST",
        token: await tokenFor(signer.email),
        json: { kind: "drawn", imageDataUrl: pngDataUrl(), consent: true },
      });

    const early = await sign();
    expect(early.status).toBe(409);
    expect(ErrorBody.parse(early.body).error).toMatch(/expired/);

    expect(await expireSignings(db)).toEqual([fixture.id]);
    const late = await sign();
    expect(late.status).toBe(409);
    expect(ErrorBody.parse(late.body)).toEqual({ error: "This signing package is expired; it can no longer be signed.", reason: "package_closed" });
    const requests = await db.select().from(signatureRequests).where(eq(signatureRequests.packageId, fixture.id));
    expect(requests.map((r) => r.status)).toEqual(["pending"]);
  });
});

/** The sweep declares its schedule (`defineJob({ schedule })`); the engines enqueue it generically. */
function scheduledSweep() {
  if (!isScheduledJob(expireSigningsJob)) throw new Error("expire-signings has no schedule");
  return expireSigningsJob;
}
const scheduleExpireSignings = (on: Db, options: { now: Date }) => enqueueScheduledJob(on, scheduledSweep(), options);

describe("the expire-signings job", () => {
  const registry = createJobRegistry([expireSigningsJob]);

  it("is declared to run every five minutes", () => {
    expect(expireSigningsJob.schedule).toBe("*/5 * * * *");
  });

  it("runs the sweep through runDueJobs", async () => {
    const fixture = await pkg("in_progress", past());
    const { job, created } = await scheduleExpireSignings(db, { now: new Date("2031-01-01T00:00:00Z") });
    expect(created).toBe(true);

    expect(await runDueJobs(db, { workerId: "expiry-test", registry })).toEqual({ claimed: 1, succeeded: 1, retried: 0, failed: 0 });

    expect((await db.select().from(jobs).where(eq(jobs.id, job.id)))[0]).toMatchObject({ status: "succeeded", attempts: 1 });
    expect((await packageRow(fixture.id)).status).toBe("expired");
    expect(await expiryAudit([fixture.id])).toHaveLength(1);
  });

  it("is enqueued once per five-minute bucket, from any number of callers", async () => {
    let second: DbHandle | undefined;
    if (testDb.url) second = await openDb({ url: testDb.url }, { max: 2 });
    try {
      const other = second?.db ?? db;
      const results = await Promise.all([
        scheduleExpireSignings(db, { now: new Date("2032-03-04T10:00:00.000Z") }),
        scheduleExpireSignings(other, { now: new Date("2032-03-04T10:02:30.000Z") }),
        scheduleExpireSignings(db, { now: new Date("2032-03-04T10:04:59.999Z") }),
      ]);
      expect(new Set(results.map((r) => r.job.id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(results[0]!.job).toMatchObject({ name: EXPIRE_SIGNINGS_JOB, idempotencyKey: "expire-signings:2032-03-04T10:00:00.000Z", payload: {} });

      const next = await scheduleExpireSignings(other, { now: new Date("2032-03-04T10:05:00.000Z") });
      expect(next).toMatchObject({ created: true, job: { idempotencyKey: "expire-signings:2032-03-04T10:05:00.000Z" } });
    } finally {
      await second?.close();
    }
    expect(await db.$count(jobs, like(jobs.idempotencyKey, "expire-signings:2032-03-04T%"))).toBe(2);
  });

  it("is scheduled by the local worker when it starts", async () => {
    setEnvForTests({ INNGEST_EVENT_KEY: "", INNGEST_DEV: "", INNGEST_BASE_URL: "" });
    const bucket = (t: number) => `expire-signings:${new Date(t - (t % 300_000)).toISOString()}`;
    const keys = [bucket(Date.now())];
    const stop = await startJobWorker();
    let rows: (typeof jobs.$inferSelect)[] = [];
    try {
      for (let i = 0; i < 100 && rows.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        rows = await db.select().from(jobs).where(and(eq(jobs.name, EXPIRE_SIGNINGS_JOB), inArray(jobs.idempotencyKey, [...keys, bucket(Date.now())])));
      }
    } finally {
      await stop();
    }
    expect(rows).toHaveLength(1);
  });
});

describe("the Inngest schedule", () => {
  it("enqueues the current bucket's job every five minutes", async () => {
    const client = createInngestClient(parseEnv({ ...process.env, INNGEST_DEV: "1" }));
    const fn = createScheduleFunction(client, scheduledSweep());
    expect(fn.opts.triggers).toEqual([{ cron: "*/5 * * * *" }]);
    await db.delete(jobs).where(eq(jobs.name, EXPIRE_SIGNINGS_JOB)); // the worker test above may have taken this bucket

    const t = new InngestTestEngine({ function: fn, events: [{ name: "inngest/scheduled.timer", data: { cron: "*/5 * * * *" } }] });
    const { result, error } = await t.execute();
    expect(error).toBeUndefined();
    const { jobId, created } = result as { jobId: string; created: boolean };
    expect(created).toBe(true);
    const [row] = await db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(row).toMatchObject({ name: EXPIRE_SIGNINGS_JOB, status: "queued", payload: {} });
    expect(row!.idempotencyKey).toMatch(/^expire-signings:\d{4}-\d\d-\d\dT\d\d:\d[05]:00\.000Z$/);
  });
});

describe("organization packageExpiryDays", () => {
  const PATH = `${BASE}/signings`;
  const setExpiryDays = async (days: number | undefined) =>
    db.update(organizations).set({ settings: days === undefined ? {} : { packageExpiryDays: days } }).where(eq(organizations.id, world.austin.organizationId));
  afterAll(() => setExpiryDays(undefined));

  it("sets expiresAt = sentAt + days on send when the package has none, and keeps an explicit one", async () => {
    await setExpiryDays(30);
    const plain = await createReadyDraft("manager@demo.local", world.austin.id);
    const explicit = await createReadyDraft("manager@demo.local", world.austin.id);
    const chosen = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect((await as("manager@demo.local", `${PATH}/${explicit}`, { method: "PATCH", json: { expiresAt: chosen } })).status).toBe(200);

    expect((await as("manager@demo.local", `${PATH}/${plain}/send`, { method: "POST" })).status).toBe(200);
    expect((await as("manager@demo.local", `${PATH}/${explicit}/send`, { method: "POST" })).status).toBe(200);

    const sentPlain = await packageRow(plain);
    expect(sentPlain.expiresAt!.getTime()).toBe(sentPlain.sentAt!.getTime() + 30 * 86_400_000);
    expect((await packageRow(explicit)).expiresAt!.toISOString()).toBe(chosen);
    const sentEntry = (await auditEntriesFor(db, plain)).find((e) => e.action === "signing.sent")!;
    expect(sentEntry.after).toMatchObject({ expiresAt: sentPlain.expiresAt!.toISOString() });
  });

  it("leaves expiresAt empty when the organization has no packageExpiryDays", async () => {
    await setExpiryDays(undefined);
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    expect((await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" })).status).toBe(200);
    expect((await packageRow(id)).expiresAt).toBeNull();
  });
});
