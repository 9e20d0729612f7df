import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "@/db/client";
import { billingRecords } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getEnv } from "@/lib/env";
import { Conflict, Unavailable } from "@/lib/errors";
import { log } from "@/lib/log";
import { stripeClient } from "@/lib/payments/stripe-client";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";

/**
 * A session of Stripe's customer billing portal (invoices, payment method, cancel or change the plan)
 * for the organization's Stripe customer; it returns to /workspace/billing. 409 while the organization
 * has no customer yet (it never went through Checkout), 503 when Stripe is not configured or fails.
 */
export async function createBillingPortalSession(
  db: Db,
  options: { principal: Principal; organizationId?: number },
): Promise<{ url: string }> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "billing:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to change billing.",
  });
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY) throw Unavailable("Payments are not configured (STRIPE_SECRET_KEY).");
  const [record] = await db.select({ customerId: billingRecords.stripeCustomerId }).from(billingRecords).where(eq(billingRecords.organizationId, organizationId));
  if (!record?.customerId) throw Conflict("This organization has no paid plan yet: upgrade first, then manage billing here.");
  let session: Stripe.BillingPortal.Session;
  try {
    session = await stripeClient(env, env.STRIPE_SECRET_KEY).billingPortal.sessions.create({
      customer: record.customerId,
      return_url: `${env.APP_URL}/workspace/billing?organizationId=${organizationId}`,
    });
  } catch (error) {
    log.error("stripe billing portal session failed", { organizationId, error });
    throw Unavailable("The payment provider did not open the billing portal; try again later.");
  }
  return { url: session.url };
}
