"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { billingPortalAction, upgradeAction } from "../actions";

const TIER_LABELS: Record<string, string> = { starter: "Starter", pro: "Pro", enterprise: "Enterprise" };

/** One "Upgrade to …" button per configured paid tier (each posts to Checkout) and, for a paying customer, "Manage billing". */
export function BillingActions({ organizationId, tiers, currentTier, hasCustomer }: { organizationId: number; tiers: string[]; currentTier: string; hasCustomer: boolean }) {
  const [upgradeState, upgrade] = useActionState<FormState, FormData>(upgradeAction, { status: "idle" });
  const [portalState, portal] = useActionState<FormState, FormData>(billingPortalAction, { status: "idle" });
  const upgrades = tiers.filter((t) => t !== currentTier);
  return (
    <div className="space-y-4">
      {upgrades.length > 0 ? (
        <div className="flex flex-wrap gap-3">
          {upgrades.map((tier) => (
            <form key={tier} action={upgrade}>
              <input type="hidden" name="organizationId" value={organizationId} />
              <input type="hidden" name="tier" value={tier} />
              <SubmitButton pendingLabel="Opening checkout…">Upgrade to {TIER_LABELS[tier] ?? tier}</SubmitButton>
            </form>
          ))}
        </div>
      ) : null}
      <FormMessage state={upgradeState} />
      {hasCustomer ? (
        <form action={portal} className="space-y-2">
          <input type="hidden" name="organizationId" value={organizationId} />
          <SubmitButton variant="secondary" pendingLabel="Opening the billing portal…">
            Manage billing
          </SubmitButton>
          <p className="text-sm text-slate-600">Invoices, payment method, plan changes and cancellation, on Stripe.</p>
          <FormMessage state={portalState} />
        </form>
      ) : null}
    </div>
  );
}
