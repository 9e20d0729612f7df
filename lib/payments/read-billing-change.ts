import type { BillingRecord } from "@/db/schema";
import { resolvePlanTier } from "./resolve-plan-tier";
import {
  StripeCheckoutSessionSchema,
  StripeInvoiceSchema,
  StripeSubscriptionSchema,
  type StripeEventEnvelope,
  type StripeSubscription,
} from "./stripe-events";

export type BillingFields = Partial<Pick<BillingRecord, "status" | "planTier" | "currentPeriodEnd" | "stripeSubscriptionId">>;

export type BillingChange = {
  /** The billing fields this event speaks about, each applied only if no newer event set it. */
  fields: BillingFields;
  /** The payment customer, used to find the organization and, for checkout, to link it. */
  customerId: string | null;
  /** An organization named by the event itself (subscription metadata, checkout client_reference_id). */
  organizationId: number | null;
  /** Checkout links the customer to the organization even when another customer was linked before. */
  linksCustomer: boolean;
  /** `<created, 12 digits>:<type rank>:<event id>`: string order is event order. */
  orderKey: string;
};

/** Stripe's events in the order it emits them within one second; ties in `created` are broken by it. */
const PAYMENT_EVENT_RANK: Record<string, number> = {
  "customer.subscription.created": 0,
  "checkout.session.completed": 1,
  "invoice.payment_failed": 2,
  "invoice.paid": 3,
  "customer.subscription.updated": 4,
  "customer.subscription.deleted": 5,
};

const STATUSES = new Set<string>(["active", "trialing", "past_due", "canceled", "incomplete", "incomplete_expired", "unpaid", "paused"]);

/**
 * What one of the six billing events (docs/integrations.md) does to the billing record, read from the event
 * alone (no database, no order). Null for any other event type, or an invoice that belongs to no
 * subscription (a one-off invoice says nothing about the plan).
 *
 * | event | fields |
 * |---|---|
 * | customer.subscription.created | plan tier (from the price); links the subscription |
 * | customer.subscription.updated | status, current period end, and the tier when the price changed |
 * | customer.subscription.deleted | status canceled, tier free |
 * | checkout.session.completed | status active, the selected tier (metadata), the customer linked |
 * | invoice.paid | status active, current period end (from the invoice lines) |
 * | invoice.payment_failed | status past_due |
 */
export function readBillingChange(event: StripeEventEnvelope): BillingChange | null {
  const change = readFields(event);
  if (!change) return null;
  const orderKey = `${String(event.created).padStart(12, "0")}:${PAYMENT_EVENT_RANK[event.type] ?? 9}:${event.id}`;
  return { ...change, orderKey };
}

function readFields(event: StripeEventEnvelope): Omit<BillingChange, "orderKey"> | null {
  const object = event.data.object;
  switch (event.type) {
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = StripeSubscriptionSchema.parse(object);
      const base = { customerId: sub.customer, organizationId: orgId(sub.metadata.organizationId), linksCustomer: false };
      if (event.type === "customer.subscription.deleted") {
        return { ...base, fields: { status: "canceled", planTier: "free", stripeSubscriptionId: sub.id } };
      }
      const tier = subscriptionTier(sub);
      if (event.type === "customer.subscription.created") {
        return { ...base, fields: { stripeSubscriptionId: sub.id, ...(tier ? { planTier: tier } : {}) } };
      }
      const periodEnd = subscriptionPeriodEnd(sub);
      return {
        ...base,
        fields: {
          stripeSubscriptionId: sub.id,
          ...(STATUSES.has(sub.status) ? { status: sub.status as BillingRecord["status"] } : {}),
          ...(periodEnd ? { currentPeriodEnd: periodEnd } : {}),
          ...(tier ? { planTier: tier } : {}),
        },
      };
    }
    case "checkout.session.completed": {
      const session = StripeCheckoutSessionSchema.parse(object);
      const tier = resolvePlanTier({
        priceId: session.metadata.priceId ?? session.metadata.price_id,
        tierName: session.metadata.planTier ?? session.metadata.tier ?? session.metadata.plan,
      });
      return {
        customerId: session.customer ?? null,
        organizationId: orgId(session.client_reference_id) ?? orgId(session.metadata.organizationId),
        linksCustomer: true,
        fields: {
          status: "active",
          ...(tier ? { planTier: tier } : {}),
          ...(session.subscription ? { stripeSubscriptionId: session.subscription } : {}),
        },
      };
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = StripeInvoiceSchema.parse(object);
      const details = invoice.parent?.subscription_details;
      const subscriptionId = details?.subscription ?? invoice.subscription;
      if (!subscriptionId) return null;
      const base = {
        customerId: invoice.customer ?? null,
        organizationId: orgId(details?.metadata.organizationId),
        linksCustomer: false,
      };
      if (event.type === "invoice.payment_failed") return { ...base, fields: { status: "past_due" } };
      const ends = (invoice.lines?.data ?? []).map((line) => line.period?.end ?? 0).filter((end) => end > 0);
      return {
        ...base,
        fields: { status: "active", ...(ends.length > 0 ? { currentPeriodEnd: new Date(Math.max(...ends) * 1000) } : {}) },
      };
    }
    default:
      return null;
  }
}

function orgId(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value.trim())) return null;
  const id = Number(value.trim());
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

function subscriptionTier(sub: StripeSubscription) {
  for (const item of sub.items?.data ?? []) {
    const tier = resolvePlanTier({ priceId: item.price?.id, lookupKey: item.price?.lookup_key });
    if (tier) return tier;
  }
  return null;
}

/** Since API version 2025-03-31 the period lives on each item; the subscription's is the latest item's. */
function subscriptionPeriodEnd(sub: StripeSubscription): Date | null {
  const ends = (sub.items?.data ?? []).map((item) => item.current_period_end ?? 0).filter((end) => end > 0);
  const end = ends.length > 0 ? Math.max(...ends) : (sub.current_period_end ?? 0);
  return end > 0 ? new Date(end * 1000) : null;
}
