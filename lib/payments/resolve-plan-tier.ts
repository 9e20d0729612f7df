import { PAID_PLAN_TIERS, getEnv, type Env, type PaidPlanTier } from "@/lib/env";

export type ResolvePlanTierOptions = {
  priceId?: string | null;
  lookupKey?: string | null;
  /** A tier named directly, e.g. a checkout session's `metadata.planTier`. */
  tierName?: string | null;
  env?: Env;
};

/**
 * A Stripe price → our plan tier: the price id configured as STRIPE_PRICE_<TIER>, else a lookup key
 * or tier name equal to the tier (`pro`) or starting with it (`pro_monthly`, `pro-yearly`).
 * Null when nothing matches: the caller leaves the tier as it is.
 */
export function resolvePlanTier(options: ResolvePlanTierOptions): PaidPlanTier | null {
  const prices = (options.env ?? getEnv()).STRIPE_PRICES;
  if (options.priceId) {
    for (const tier of PAID_PLAN_TIERS) if (prices[tier] === options.priceId) return tier;
  }
  for (const name of [options.lookupKey, options.tierName]) {
    const key = name?.trim().toLowerCase();
    if (!key) continue;
    const tier = PAID_PLAN_TIERS.find((t) => key === t || key.startsWith(`${t}_`) || key.startsWith(`${t}-`));
    if (tier) return tier;
  }
  return null;
}
