import Stripe from "stripe";
import { getEnv } from "@/lib/env";
import { BadRequest, Unavailable } from "@/lib/errors";
import { log } from "@/lib/log";
import { StripeEventEnvelopeSchema, type StripeEventEnvelope } from "./stripe-events";

export type VerifyPaymentWebhookOptions = {
  /** The request body exactly as received: the signature covers these bytes. */
  rawBody: string;
  headers: Headers;
};

/**
 * Checks the Stripe signature (`payments-signature`, the spec's name, or Stripe's own
 * `Stripe-Signature`) against STRIPE_WEBHOOK_SECRET with the SDK's `constructEvent`, which also
 * rejects timestamps more than 5 minutes old. Replays inside that window are caught by the unique
 * event id in `inbound_events`.
 */
export function verifyPaymentWebhook(options: VerifyPaymentWebhookOptions): StripeEventEnvelope & { payload: unknown } {
  const secret = getEnv().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw Unavailable("Payments webhook is not configured.");

  const header = options.headers.get("payments-signature") ?? options.headers.get("stripe-signature");
  if (!header) throw BadRequest("Missing payments-signature header.");

  let event: unknown;
  try {
    event = Stripe.webhooks.constructEvent(options.rawBody, header, secret);
  } catch (error) {
    // constructEvent parses the body only after the signature matched.
    if (error instanceof SyntaxError) throw BadRequest("Webhook body is not valid JSON.");
    log.warn("payments webhook rejected", { reason: error instanceof Error ? error.message : String(error) });
    throw BadRequest("Invalid webhook signature.");
  }

  const envelope = StripeEventEnvelopeSchema.safeParse(event);
  if (!envelope.success) throw BadRequest("Webhook body is not a Stripe event.");
  return { ...envelope.data, payload: event };
}
