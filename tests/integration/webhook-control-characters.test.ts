import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inboundEmails, inboundEvents } from "@/db/schema";
import { POST as emailWebhook } from "@/app/api/webhooks/email/route";
import { setEnvForTests } from "@/lib/env";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { PAYMENTS_ENV, deliver, drainJobs, invoiceObject, stripeEvent } from "@/tests/helpers/payments";

// A verified webhook is acknowledged whatever its text says: U+0000 is stored as U+FFFD, never a 5xx
// that the provider would retry forever.
const DOMAIN = "inbound.example.test";
let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
});

beforeEach(() => {
  setEnvForTests({ ...PAYMENTS_ENV, INBOUND_EMAIL_DOMAIN: DOMAIN, EMAIL_WEBHOOK_TOKEN: "" });
});

afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

describe("webhooks carrying U+0000", () => {
  it("a signed payments event is stored neutralised and acknowledged, also on redelivery", async () => {
    const event = stripeEvent("invoice.paid", 1_900_000_000, { ...invoiceObject({ customer: "cus_nul\u0000x" }), description: "a\u0000b" }, "evt_nul\u0000id");
    const first = await deliver(event);
    expect(first.status).toBe(200);
    expect(await deliver(event)).toHaveProperty("status", 200);
    const [stored] = await testDb.db.select().from(inboundEvents).where(eq(inboundEvents.providerEventId, "evt_nul\uFFFDid"));
    expect(stored).toBeDefined();
    expect(JSON.stringify(stored!.payload)).toContain("a\uFFFDb");
    expect(JSON.stringify(stored!.payload)).not.toContain("\\u0000");
  });

  it("an inbound email is stored neutralised, acknowledged and filed", async () => {
    const mail = { to: `desk@${DOMAIN}`, from: "x@example.com", subject: "Title\u0000 received", text: "body\u0000text", messageId: "<nul\u0000@example.com>" };
    const response = await emailWebhook(
      new Request("http://localhost:3000/api/webhooks/email", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(mail) }),
    );
    expect(response.status).toBe(200);
    await drainJobs(testDb.db);
    const rows = await testDb.db.select().from(inboundEmails).where(eq(inboundEmails.subject, "Title\uFFFD received"));
    expect(rows).toHaveLength(1);
  });
});
