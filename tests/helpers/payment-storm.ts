import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { billingRecords } from "@/db/schema";
import { PRICES, checkoutObject, invoiceObject, stripeEvent, subscriptionObject, type StripeTestEvent } from "./payments";

// Shared by the payment storm tests: reproducible event lifecycles, shuffling and the billing state
// they end in.

/** Deterministic PRNG so a failure reproduces (mulberry32). */
export function prng(seed: number) {
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
export function lifecycle(run: string, org: number, index: number, random: () => number): StripeTestEvent[] {
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

export function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The billing records of these organizations, comparable across runs: `runTags` are the run markers
 * inside provider ids (e.g. "in" for in-order, "st" for storm), folded away.
 */
export async function billingStateOf(db: Db, organizationIds: number[], runTags: [string, string]) {
  const tag = new RegExp(`_(${runTags[0]}|${runTags[1]})_`);
  const rows = await db.select().from(billingRecords).where(inArray(billingRecords.organizationId, organizationIds));
  return organizationIds.map((id) => {
    const r = rows.find((row) => row.organizationId === id);
    return r && {
      status: r.status,
      planTier: r.planTier,
      currentPeriodEnd: r.currentPeriodEnd?.toISOString() ?? null,
      stripeSubscriptionId: r.stripeSubscriptionId?.replace(tag, "_"),
      stripeCustomerId: r.stripeCustomerId?.replace(tag, "_"),
      lastEventCreatedAt: r.lastEventCreatedAt?.toISOString(),
    };
  });
}
