"use server";

import { redirect } from "next/navigation";
import { BillingPortalRequestSchema, CheckoutRequestSchema } from "@/lib/api/schemas/workspace";
import { createBillingPortalSession } from "@/lib/workspace/create-billing-portal-session";
import { createCheckoutSession } from "@/lib/workspace/create-checkout-session";
import { validatedAction } from "../../../_lib/validated-action";

const text = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : undefined;
};

const organizationId = (formData: FormData) => Number(text(formData, "organizationId"));

/** "Upgrade": a Stripe Checkout session for the tier, then the browser goes to Stripe. */
export const upgradeAction = validatedAction(
  CheckoutRequestSchema,
  async (input, { db, principal }) => {
    const { url } = await createCheckoutSession(db, { principal, ...input });
    redirect(url);
  },
  { returnTo: "/workspace/billing", toInput: (formData) => ({ tier: text(formData, "tier"), organizationId: organizationId(formData) }) },
);

/** "Manage billing": Stripe's billing portal for the organization's customer. */
export const billingPortalAction = validatedAction(
  BillingPortalRequestSchema,
  async (input, { db, principal }) => {
    const { url } = await createBillingPortalSession(db, { principal, ...input });
    redirect(url);
  },
  { returnTo: "/workspace/billing", toInput: (formData) => ({ organizationId: organizationId(formData) }) },
);
