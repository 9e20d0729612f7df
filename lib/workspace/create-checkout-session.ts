import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "@/db/client";
import { billingRecords } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getEnv, type PaidPlanTier } from "@/lib/env";
import { Unavailable } from "@/lib/errors";
import { log } from "@/lib/log";
import { stripeClient } from "@/lib/payments/stripe-client";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";

/**
 * A Stripe Checkout session (subscription) for a paid tier. The organization travels as
 * `client_reference_id` and in the session's and subscription's metadata, so the payment webhooks
 * can attach the resulting customer and subscription to it (lib/payments). 503 when Stripe or the
 * tier's price is not configured.
 */
export async function createCheckoutSession(
  db: Db,
  options: { principal: Principal; organizationId?: number; tier: PaidPlanTier },
): Promise<{ url: string }> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "billing:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to change billing.",
  });
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY) throw Unavailable("Payments are not configured (STRIPE_SECRET_KEY).");
  const price = env.STRIPE_PRICES[options.tier];
  if (!price) throw Unavailable(`The ${options.tier} plan is not configured (STRIPE_PRICE_${options.tier.toUpperCase()}).`);
  const [record] = await db.select({ customerId: billingRecords.stripeCustomerId }).from(billingRecords).where(eq(billingRecords.organizationId, organizationId));
  const metadata = { organizationId: String(organizationId), planTier: options.tier };
  let session: Stripe.Checkout.Session;
  try {
    session = await stripeClient(env, env.STRIPE_SECRET_KEY).checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price, quantity: 1 }],
      client_reference_id: String(organizationId),
      ...(record?.customerId ? { customer: record.customerId } : { customer_email: options.principal.user.email }),
      metadata: { ...metadata, priceId: price },
      subscription_data: { metadata },
      success_url: `${env.APP_URL}/workspace/billing?organizationId=${organizationId}&checkout=success`,
      cancel_url: `${env.APP_URL}/workspace/billing?organizationId=${organizationId}&checkout=cancelled`,
    });
  } catch (error) {
    log.error("stripe checkout session failed", { organizationId, error });
    throw Unavailable("The payment provider did not create a checkout session; try again later.");
  }
  if (!session.url) throw Unavailable("The payment provider returned a checkout session without a URL.");
  return { url: session.url };
}
