import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import type { Db } from "@/db/client";
import { billingRecords, jobs, organizations } from "@/db/schema";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { POST as paymentsWebhook } from "@/app/api/webhooks/payments/route";

export const WEBHOOK_SECRET = "whsec_test_payments_secret";
export const PRICES = { starter: "price_starter_m", pro: "price_pro_m", enterprise: "price_enterprise_m" } as const;
export const PAYMENTS_ENV = {
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PRICE_STARTER: PRICES.starter,
  STRIPE_PRICE_PRO: PRICES.pro,
  STRIPE_PRICE_ENTERPRISE: PRICES.enterprise,
};

export type StripeTestEvent = { id: string; object: "event"; type: string; created: number; data: { object: Record<string, unknown> } };

export async function createOrganization(db: Db, slug = `org-${randomUUID().slice(0, 8)}`): Promise<number> {
  const [org] = await db.insert(organizations).values({ name: slug, slug }).returning({ id: organizations.id });
  return org!.id;
}

export function stripeEvent(type: string, created: number, object: Record<string, unknown>, id = `evt_${randomUUID().replace(/-/g, "")}`): StripeTestEvent {
  return { id, object: "event", type, created, data: { object } };
}

export type SubscriptionShape = {
  id: string;
  customer: string;
  status?: string;
  price?: string;
  lookupKey?: string | null;
  periodEnd?: number;
  organizationId?: number;
};

export function subscriptionObject(s: SubscriptionShape): Record<string, unknown> {
  return {
    id: s.id,
    object: "subscription",
    customer: s.customer,
    status: s.status ?? "active",
    metadata: s.organizationId ? { organizationId: String(s.organizationId) } : {},
    items: {
      object: "list",
      data: [
        {
          id: `si_${s.id}`,
          object: "subscription_item",
          price: { id: s.price ?? PRICES.pro, object: "price", lookup_key: s.lookupKey ?? null },
          current_period_start: (s.periodEnd ?? 2_000_000_000) - 30 * 86400,
          current_period_end: s.periodEnd ?? 2_000_000_000,
        },
      ],
    },
  };
}

export function checkoutObject(c: { customer: string; subscription?: string; organizationId?: number; planTier?: string }): Record<string, unknown> {
  return {
    id: `cs_${randomUUID().slice(0, 8)}`,
    object: "checkout.session",
    mode: "subscription",
    customer: c.customer,
    subscription: c.subscription ?? null,
    client_reference_id: c.organizationId ? String(c.organizationId) : null,
    metadata: c.planTier ? { planTier: c.planTier } : {},
  };
}

export function invoiceObject(i: { customer: string; subscription?: string; periodEnd?: number; organizationId?: number }): Record<string, unknown> {
  return {
    id: `in_${randomUUID().slice(0, 8)}`,
    object: "invoice",
    customer: i.customer,
    parent: i.subscription
      ? {
          type: "subscription_details",
          subscription_details: {
            subscription: i.subscription,
            metadata: i.organizationId ? { organizationId: String(i.organizationId) } : {},
          },
        }
      : null,
    lines: { object: "list", data: [{ id: "il_1", period: { start: (i.periodEnd ?? 2_000_000_000) - 30 * 86400, end: i.periodEnd ?? 2_000_000_000 } }] },
  };
}

export function signedPaymentsRequest(
  body: string,
  options: { secret?: string; timestamp?: number; header?: string | null; signature?: string } = {},
): Request {
  const headers = new Headers({ "content-type": "application/json" });
  const headerName = options.header === undefined ? "payments-signature" : options.header;
  if (headerName) {
    const value =
      options.signature ??
      Stripe.webhooks.generateTestHeaderString({ payload: body, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp });
    headers.set(headerName, value);
  }
  return new Request("http://localhost:3000/api/webhooks/payments", { method: "POST", headers, body });
}

export async function deliver(event: StripeTestEvent): Promise<Response> {
  return paymentsWebhook(signedPaymentsRequest(JSON.stringify(event)));
}

/** Runs jobs until none is left, moving retries' `run_at` to now so backoff does not slow the test. */
export async function drainJobs(db: Db, workerId = "test-worker"): Promise<void> {
  for (let round = 0; round < 200; round += 1) {
    await db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.status, "queued"));
    const result = await runDueJobs(db, { workerId, limit: 50 });
    if (result.claimed === 0) return;
  }
  throw new Error("jobs did not drain in 200 rounds");
}

export async function billingOf(db: Db, organizationId: number) {
  const [row] = await db.select().from(billingRecords).where(eq(billingRecords.organizationId, organizationId));
  return row;
}
