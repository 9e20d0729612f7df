// A job leaves right after its transaction commits (no timer), with the row's id as its only payload.
import { createServer, type Server } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jobs } from "@/db/schema/jobs";
import { sendEmailJob } from "@/lib/job-runner/send-email-job";
import { setEnvForTests } from "@/lib/env";
import { enableDispatchAfterCommit, settleDispatches } from "@/lib/job-runner/dispatch-after-commit";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { newWorkerId, startPollingLoop } from "@/lib/job-runner/start-job-polling";
import { createTestDb, type TestDb } from "../helpers/db";

let testDb: TestDb;
let server: Server;
let received: { path: string; events: { name: string; id: string; data: Record<string, unknown> }[] }[] = [];

const email = {
  to: "borrower@example.com",
  subject: "Your code",
  text: "Your one-time code is 493021. Open https://sign.example.com/access/SECRET-TOKEN-abcdefghijklmnop",
};

beforeAll(async () => {
  testDb = await createTestDb();
  // A stand-in for Inngest's event API, reached by the real SDK over HTTP.
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const events = JSON.parse(body) as { name: string; id: string; data: Record<string, unknown> }[];
      received.push({ path: req.url ?? "", events });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ ids: events.map((_, i) => `evt-${i}`), status: 200 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  setEnvForTests({ INNGEST_EVENT_KEY: "after-commit-key", INNGEST_BASE_URL: `http://127.0.0.1:${port}` });
  enableDispatchAfterCommit({ useAfter: false });
});

afterAll(async () => {
  enableDispatchAfterCommit({ enabled: false, useAfter: false });
  setEnvForTests({});
  await new Promise((resolve) => server.close(resolve));
  await testDb.cleanup();
});

beforeEach(async () => {
  received = [];
  await testDb.db.delete(jobs);
});

describe("with Inngest", () => {
  it("sends the job's event once its transaction commits, carrying the row id and none of the email", async () => {
    const id = await testDb.db.transaction(async (tx) => {
      const { job } = await enqueueJob(tx, sendEmailJob, email, { idempotencyKey: "code:1" });
      // The transaction is still open for a while: nothing may leave before the commit.
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(received).toHaveLength(0);
      return job.id;
    });
    await settleDispatches();
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe("/e/after-commit-key");
    expect(received[0]!.events).toEqual([expect.objectContaining({ name: "jobs/send-email", id: "send-email:code:1", data: { jobId: id } })]);
    const sent = JSON.stringify(received);
    for (const secret of ["493021", "SECRET-TOKEN", "borrower@example.com", "Your code"]) expect(sent).not.toContain(secret);
    const [row] = await testDb.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: "dispatched" });
  });

  it("sends nothing for a transaction that rolled back", async () => {
    await expect(
      testDb.db.transaction(async (tx) => {
        await enqueueJob(tx, sendEmailJob, email);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await settleDispatches();
    expect(received).toHaveLength(0);
    expect(await testDb.db.$count(jobs)).toBe(0);
  });
});

describe("with the local runner", () => {
  it("wakes the resident runner at once instead of waiting for its next poll", async () => {
    setEnvForTests({ INNGEST_EVENT_KEY: "", INNGEST_BASE_URL: "" });
    let passes = 0;
    // A poll interval far longer than the test: only a wake-up can run the second pass.
    const stop = startPollingLoop({ name: "test runner", workerId: newWorkerId(), intervalMs: 10 * 60_000 }, async () => {
      passes++;
      return false;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(passes).toBe(1);
      await enqueueJob(testDb.db, sendEmailJob, email);
      await settleDispatches();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(passes).toBe(2);
      expect(received).toHaveLength(0);
    } finally {
      await stop();
    }
  });
});
