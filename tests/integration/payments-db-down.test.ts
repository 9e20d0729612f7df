import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { setDbHandle } from "@/lib/db/process-db";
import { setEnvForTests } from "@/lib/env";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { PAYMENTS_ENV, deliver, invoiceObject, stripeEvent } from "@/tests/helpers/payments";

// Its own file: `prepareDatabase` caches the first database that booted, per module graph.
let testDb: TestDb;

beforeAll(async () => {
  setEnvForTests(PAYMENTS_ENV);
  testDb = await createTestDb({ install: false });
});

afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

const event = () => stripeEvent("invoice.paid", 1_900_000_000, invoiceObject({ customer: "cus_down", subscription: "sub_down" }));

describe("payments webhook with the database down", () => {
  it("answers 503, never 2xx, when the database cannot be reached at all (closed port)", async () => {
    setDbHandle(await openDb({ url: "postgres://postgres@127.0.0.1:9/nowhere" }, { max: 1 }));
    const response = await deliver(event());
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: "The database is unavailable. Try again shortly." });
  });

  it("answers 503 when the database goes away after start-up", async () => {
    setDbHandle(testDb);
    expect((await deliver(event())).status).toBe(200);
    await testDb.close();
    const response = await deliver(event());
    expect(response.status).toBe(503);
  });
});
