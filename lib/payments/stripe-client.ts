import Stripe from "stripe";
import type { Env } from "@/lib/env";

/** Stripe's client, aimed at STRIPE_API_BASE_URL when set (tests use a local stand-in). */
export function stripeClient(env: Env, secretKey: string): Stripe {
  const base = env.STRIPE_API_BASE_URL ? new URL(env.STRIPE_API_BASE_URL) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 1,
    timeout: 15_000,
    ...(base
      ? { host: base.hostname, port: base.port || (base.protocol === "https:" ? 443 : 80), protocol: base.protocol === "https:" ? "https" : "http" }
      : {}),
  });
}
