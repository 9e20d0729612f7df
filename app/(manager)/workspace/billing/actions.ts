"use server";

import { redirect } from "next/navigation";
import { BillingPortalRequestSchema, CheckoutRequestSchema } from "@/lib/api/schemas/workspace";
import { createBillingPortalSession } from "@/lib/workspace/create-billing-portal-session";
import { createCheckoutSession } from "@/lib/workspace/create-checkout-session";
import type { FormFields } from "../../../_lib/form-fields";
import { validatedAction } from "../../../_lib/validated-action";


const organizationId = (fields: FormFields) => Number(fields.text("organizationId"));

/** "Upgrade": a Stripe Checkout session for the tier, then the browser goes to Stripe. */
export const upgradeAction = validatedAction(
  CheckoutRequestSchema,
  async (input, { db, principal }) => {
    const { url } = await createCheckoutSession(db, { principal, ...input });
    redirect(url);
  },
  { returnTo: "/workspace/billing", toInput: (_formData, fields) => ({ tier: fields.text("tier"), organizationId: organizationId(fields) }) },
);

/** "Manage billing": Stripe's billing portal for the organization's customer. */
export const billingPortalAction = validatedAction(
  BillingPortalRequestSchema,
  async (input, { db, principal }) => {
    const { url } = await createBillingPortalSession(db, { principal, ...input });
    redirect(url);
  },
  { returnTo: "/workspace/billing", toInput: (_formData, fields) => ({ organizationId: organizationId(fields) }) },
);
