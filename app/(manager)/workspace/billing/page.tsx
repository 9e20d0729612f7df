import type { Metadata } from "next";
import { getEnv, PAID_PLAN_TIERS } from "@/lib/env";
import { getBillingStatus } from "@/lib/workspace/get-billing-status";
import { loadWorkspace } from "../_components/load-workspace";
import { NotAnAdmin, WorkspaceHeader } from "../_components/workspace-header";
import { BillingActions } from "./_components/billing-actions";
import { formatDate } from "@/lib/format";

export const metadata: Metadata = { title: "Billing" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUS_LABELS: Record<string, string> = {
  active: "Active",
  trialing: "Trial",
  past_due: "Payment overdue",
  canceled: "Cancelled",
  incomplete: "Waiting for the first payment",
  incomplete_expired: "First payment failed",
  unpaid: "Unpaid",
  paused: "Paused",
};
const TIER_LABELS: Record<string, string> = { free: "Free", starter: "Starter", pro: "Pro", enterprise: "Enterprise" };

/** Plan, status and period end as the payment webhooks left them; Upgrade → Stripe Checkout; Manage → Stripe's portal. */
export default async function BillingPage({ searchParams }: Props) {
  const params = await searchParams;
  const { db, principal, organization, organizations } = await loadWorkspace("billing", "billing:read", params);
  if (!organization) return <NotAnAdmin what="billing" />;
  const billing = await getBillingStatus(db, { principal, organizationId: organization.id });
  const env = getEnv();
  const tiers = env.STRIPE_SECRET_KEY ? PAID_PLAN_TIERS.filter((t) => env.STRIPE_PRICES[t]) : [];
  const canWrite = principal.capabilities.includes("billing:write");
  const returned = params.checkout;

  return (
    <>
      <WorkspaceHeader tab="billing" organization={organization} organizations={organizations} />
      <div className="max-w-2xl space-y-6">
        {returned === "success" ? (
          <p role="status" className="rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900">
            Thank you. Stripe confirmed the checkout; the new plan shows here as soon as Stripe tells us the subscription is active (usually within a minute).
          </p>
        ) : returned === "cancelled" ? (
          <p role="status" className="rounded-md border border-slate-300 bg-slate-50 px-4 py-3 text-sm text-slate-900">
            Checkout was cancelled; nothing changed.
          </p>
        ) : null}
        <section aria-labelledby="plan-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="plan-heading" className="text-lg font-semibold text-slate-900">
            Plan
          </h2>
          <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="font-medium text-slate-700">Plan</dt>
            <dd data-testid="billing-plan">{TIER_LABELS[billing.planTier] ?? billing.planTier}</dd>
            <dt className="font-medium text-slate-700">Status</dt>
            <dd data-testid="billing-status">{STATUS_LABELS[billing.status] ?? billing.status}</dd>
            <dt className="font-medium text-slate-700">Current period ends</dt>
            <dd>{billing.currentPeriodEnd ? formatDate(billing.currentPeriodEnd, "long") : "—"}</dd>
          </dl>
        </section>
        {!canWrite ? null : !env.STRIPE_SECRET_KEY ? (
          <p className="text-sm text-slate-700">Payments are not configured on this server, so plans cannot be changed here.</p>
        ) : (
          <BillingActions organizationId={organization.id} tiers={[...tiers]} currentTier={billing.planTier} hasCustomer={billing.planTier !== "free"} />
        )}
      </div>
    </>
  );
}
