import { and, asc, eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboundEvents, jobs, webhookEvents } from "@/db/schema";
import { POST } from "@/app/api/webhooks/payments/route";
import { setEnvForTests } from "@/lib/env";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import {
  PAYMENTS_ENV,
  PRICES,
  WEBHOOK_SECRET,
  billingOf,
  checkoutObject,
  createOrganization,
  deliver,
  drainJobs,
  invoiceObject,
  signedPaymentsRequest,
  stripeEvent,
  subscriptionObject,
} from "@/tests/helpers/payments";

let testDb: TestDb;
const T0 = 1_900_000_000;

beforeAll(async () => {
  setEnvForTests(PAYMENTS_ENV);
  testDb = await createTestDb();
});

afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

async function errorOf(response: Response) {
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("POST /api/webhooks/payments – verification", () => {
  const body = JSON.stringify(stripeEvent("invoice.paid", T0, invoiceObject({ customer: "cus_x", subscription: "sub_x" })));

  it("answers 503 when no webhook secret is configured", async () => {
    setEnvForTests({ ...PAYMENTS_ENV, STRIPE_WEBHOOK_SECRET: "" });
    try {
      expect(await errorOf(await POST(signedPaymentsRequest(body)))).toEqual({
        status: 503,
        body: { error: "Payments webhook is not configured." },
      });
    } finally {
      setEnvForTests(PAYMENTS_ENV);
    }
  });

  it.each([
    ["missing header", signedPaymentsRequest(body, { header: null }), "Missing payments-signature header."],
    ["malformed header", signedPaymentsRequest(body, { signature: "not-a-signature" }), "Invalid webhook signature."],
    ["wrong secret", signedPaymentsRequest(body, { secret: "whsec_someone_else" }), "Invalid webhook signature."],
    ["stale timestamp (10 minutes)", signedPaymentsRequest(body, { timestamp: Math.floor(Date.now() / 1000) - 600 }), "Invalid webhook signature."],
  ])("answers 400 for a %s and stores nothing", async (_name, request, message) => {
    expect(await errorOf(await POST(request))).toEqual({ status: 400, body: { error: message } });
    expect(await testDb.db.select().from(inboundEvents)).toHaveLength(0);
  });

  it("answers 400 for a tampered body (signature of other bytes)", async () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET });
    const tampered = body.replace("cus_x", "cus_y");
    const response = await POST(signedPaymentsRequest(tampered, { signature: header }));
    expect(await errorOf(response)).toEqual({ status: 400, body: { error: "Invalid webhook signature." } });
    // Re-serialized JSON (whitespace) is different bytes too.
    const reformatted = JSON.stringify(JSON.parse(body), null, 2);
    expect((await POST(signedPaymentsRequest(reformatted, { signature: header }))).status).toBe(400);
  });

  it("accepts Stripe's own Stripe-Signature header name", async () => {
    const response = await POST(signedPaymentsRequest(body, { header: "Stripe-Signature" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
  });

  it("answers 400 for signed bytes that are not JSON or not an event", async () => {
    expect(await errorOf(await POST(signedPaymentsRequest("not json")))).toEqual({ status: 400, body: { error: "Webhook body is not valid JSON." } });
    expect(await errorOf(await POST(signedPaymentsRequest(JSON.stringify({ hello: "world" }))))).toEqual({
      status: 400,
      body: { error: "Webhook body is not a Stripe event." },
    });
  });

  it("answers 413 for an oversized body", async () => {
    const big = JSON.stringify({ ...JSON.parse(body), pad: "x".repeat(1024 * 1024) });
    expect((await POST(signedPaymentsRequest(big))).status).toBe(413);
  });
});

describe("billing events (docs/integrations.md)", () => {
  it("moves one organization through the six events", async () => {
    const db = testDb.db;
    const org = await createOrganization(db);
    const sub = { id: "sub_life", customer: "cus_life", organizationId: org };

    // checkout.session.completed: customer linked, selected plan active.
    expect((await deliver(stripeEvent("checkout.session.completed", T0, checkoutObject({ customer: "cus_life", subscription: "sub_life", organizationId: org, planTier: "starter" })))).status).toBe(200);
    expect(await billingOf(db, org)).toBeUndefined(); // asynchronous: nothing before the job runs
    await drainJobs(db);
    expect(await billingOf(db, org)).toMatchObject({ status: "active", planTier: "starter", stripeCustomerId: "cus_life", stripeSubscriptionId: "sub_life" });

    // customer.subscription.created: plan tier set from the price.
    await deliver(stripeEvent("customer.subscription.created", T0 + 1, subscriptionObject({ ...sub, price: PRICES.pro, status: "incomplete" })));
    await drainJobs(db);
    expect(await billingOf(db, org)).toMatchObject({ status: "active", planTier: "pro" });

    // customer.subscription.updated: status and current period end synced (period end from the items).
    await deliver(stripeEvent("customer.subscription.updated", T0 + 2, subscriptionObject({ ...sub, status: "trialing", periodEnd: T0 + 86400 * 30 })));
    await drainJobs(db);
    expect(await billingOf(db, org)).toMatchObject({ status: "trialing", currentPeriodEnd: new Date((T0 + 86400 * 30) * 1000) });

    // invoice.payment_failed: past due.
    await deliver(stripeEvent("invoice.payment_failed", T0 + 3, invoiceObject({ customer: "cus_life", subscription: "sub_life" })));
    await drainJobs(db);
    expect(await billingOf(db, org)).toMatchObject({ status: "past_due" });

    // invoice.paid: active, period end refreshed from the invoice lines (found through the linked customer).
    await deliver(stripeEvent("invoice.paid", T0 + 4, invoiceObject({ customer: "cus_life", subscription: "sub_life", periodEnd: T0 + 86400 * 60 })));
    await drainJobs(db);
    expect(await billingOf(db, org)).toMatchObject({ status: "active", planTier: "pro", currentPeriodEnd: new Date((T0 + 86400 * 60) * 1000) });

    // customer.subscription.deleted: canceled, tier back to Free.
    await deliver(stripeEvent("customer.subscription.deleted", T0 + 5, subscriptionObject({ ...sub, status: "canceled" })));
    await drainJobs(db);
    expect(await billingOf(db, org)).toMatchObject({ status: "canceled", planTier: "free", lastEventCreatedAt: new Date((T0 + 5) * 1000) });

    // Each move of status or plan is one billing.status_changed webhook event for the organization, in order.
    const events = await db
      .select({ data: webhookEvents.data })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.organizationId, org), eq(webhookEvents.type, "billing.status_changed")))
      .orderBy(asc(webhookEvents.createdAt));
    expect(events.map((e) => e.data)).toEqual([
      { organizationId: org, status: "active", planTier: "starter", previousStatus: "active", previousPlanTier: "free" },
      { organizationId: org, status: "active", planTier: "pro", previousStatus: "active", previousPlanTier: "starter" },
      { organizationId: org, status: "trialing", planTier: "pro", previousStatus: "active", previousPlanTier: "pro" },
      { organizationId: org, status: "past_due", planTier: "pro", previousStatus: "trialing", previousPlanTier: "pro" },
      { organizationId: org, status: "active", planTier: "pro", previousStatus: "past_due", previousPlanTier: "pro" },
      { organizationId: org, status: "canceled", planTier: "free", previousStatus: "active", previousPlanTier: "pro" },
    ]);
  });

  it("takes the tier from a price's lookup_key when the price id is not configured", async () => {
    const org = await createOrganization(testDb.db);
    await deliver(stripeEvent("customer.subscription.created", T0, subscriptionObject({ id: "sub_lk", customer: "cus_lk", organizationId: org, price: "price_unknown", lookupKey: "enterprise_yearly" })));
    await drainJobs(testDb.db);
    expect(await billingOf(testDb.db, org)).toMatchObject({ planTier: "enterprise", stripeCustomerId: "cus_lk" });
  });

  it("changes nothing on a duplicate delivery", async () => {
    const db = testDb.db;
    const org = await createOrganization(db);
    const event = stripeEvent("customer.subscription.updated", T0, subscriptionObject({ id: "sub_dup", customer: "cus_dup", organizationId: org, status: "past_due" }));
    expect(await (await deliver(event)).json()).toEqual({ received: true });
    await drainJobs(db);
    const before = await billingOf(db, org);
    expect(before).toMatchObject({ status: "past_due" });

    const again = await deliver(event);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    await drainJobs(db);
    expect(await billingOf(db, org)).toEqual(before);
    expect(await db.select().from(inboundEvents).where(eq(inboundEvents.providerEventId, event.id))).toHaveLength(1);
    expect(await db.select().from(jobs).where(eq(jobs.name, "process-payment-event"))).toSatisfy((rows: unknown[]) => rows.length > 0);
  });

  it("records an older event without moving the state", async () => {
    const db = testDb.db;
    const org = await createOrganization(db);
    const sub = { id: "sub_ooo", customer: "cus_ooo", organizationId: org };
    await deliver(stripeEvent("customer.subscription.updated", T0 + 10, subscriptionObject({ ...sub, status: "active", periodEnd: T0 + 999 })));
    await drainJobs(db);
    const late = stripeEvent("customer.subscription.updated", T0 + 5, subscriptionObject({ ...sub, status: "past_due", periodEnd: T0 + 5 }));
    expect((await deliver(late)).status).toBe(200);
    await drainJobs(db);
    expect(await billingOf(db, org)).toMatchObject({ status: "active", currentPeriodEnd: new Date((T0 + 999) * 1000), lastEventCreatedAt: new Date((T0 + 10) * 1000) });
    const [stored] = await db.select().from(inboundEvents).where(eq(inboundEvents.providerEventId, late.id));
    expect(stored).toMatchObject({ status: "ignored", organizationId: org });
    expect(stored!.lastError).toMatch(/Superseded/);
  });

  it("retries an event whose organization is not known yet, and applies it once the customer is linked", async () => {
    const db = testDb.db;
    const org = await createOrganization(db);
    await deliver(stripeEvent("invoice.payment_failed", T0 + 2, invoiceObject({ customer: "cus_late", subscription: "sub_late" })));
    const first = await (await import("@/lib/job-runner/run-due-jobs")).runDueJobs(db, { workerId: "w" });
    expect(first).toMatchObject({ claimed: 1, retried: 1 });
    const [job] = await db.select().from(jobs).where(eq(jobs.status, "queued"));
    expect(job!.lastError).toMatch(/No organization/);

    await deliver(stripeEvent("checkout.session.completed", T0 + 1, checkoutObject({ customer: "cus_late", subscription: "sub_late", organizationId: org })));
    await drainJobs(db);
    expect(await billingOf(db, org)).toMatchObject({ status: "past_due", stripeCustomerId: "cus_late" });
  });

  it("ignores event types outside the billing table of docs/integrations.md and one-off invoices", async () => {
    const db = testDb.db;
    const other = stripeEvent("charge.succeeded", T0, { id: "ch_1", object: "charge" });
    const oneOff = stripeEvent("invoice.paid", T0, invoiceObject({ customer: "cus_nobody" }));
    for (const e of [other, oneOff]) expect((await deliver(e)).status).toBe(200);
    await drainJobs(db);
    for (const e of [other, oneOff]) {
      const [row] = await db.select().from(inboundEvents).where(eq(inboundEvents.providerEventId, e.id));
      expect(row!.status).toBe("ignored");
    }
  });
});
