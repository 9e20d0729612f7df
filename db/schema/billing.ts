import { integer, jsonb, pgEnum, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestampTz, updatedAt } from "./columns";
import { organizations } from "./organizations";

export const billingStatusEnum = pgEnum("billing_status", [
  "active",
  "trialing",
  "past_due",
  "canceled",
  "incomplete",
  "incomplete_expired",
  "unpaid",
  "paused",
]);
export const planTierEnum = pgEnum("plan_tier", ["free", "starter", "pro", "enterprise"]);

/**
 * Per field, the order key (`<event.created, 12 digits>:<type rank>:<event id>`) of the payment event
 * that last set it. Stripe does not deliver in order and its events carry different subsets of the
 * state, so each field keeps the value of the newest event that speaks about it: any delivery order
 * ends in the state in-order delivery gives.
 */
export type BillingFieldVersions = Partial<Record<"status" | "planTier" | "currentPeriodEnd" | "stripeSubscriptionId", string>>;

/** One billing record per organization, moved only by payment webhooks (docs/integrations.md). */
export const billingRecords = pgTable(
  "billing_records",
  {
    organizationId: integer("organization_id")
      .primaryKey()
      .references(() => organizations.id, { onDelete: "cascade" }),
    status: billingStatusEnum("status").notNull().default("active"),
    planTier: planTierEnum("plan_tier").notNull().default("free"),
    currentPeriodEnd: timestampTz("current_period_end"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    lastEventId: text("last_event_id"),
    lastEventCreatedAt: timestampTz("last_event_created_at"),
    fieldVersions: jsonb("field_versions").$type<BillingFieldVersions>().notNull().default({}),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("billing_records_stripe_customer_id_key").on(t.stripeCustomerId)],
);

export type BillingRecord = typeof billingRecords.$inferSelect;
export type NewBillingRecord = typeof billingRecords.$inferInsert;
