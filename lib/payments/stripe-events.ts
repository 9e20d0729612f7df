import { z } from "zod";

/**
 * The parts of Stripe's webhook payloads (API version 2025-03-31 and later, where the billing period
 * lives on subscription items and an invoice names its subscription under `parent`) that billing
 * sync reads. Unknown fields pass through; the full event stays in `inbound_events.payload`.
 */
export const StripeEventEnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int().nonnegative(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type StripeEventEnvelope = z.infer<typeof StripeEventEnvelopeSchema>;

const idOf = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)]);
const metadata = z.record(z.string(), z.string()).nullish().transform((m) => m ?? {});

export const StripePriceSchema = z.union([
  z.string().transform((id) => ({ id, lookup_key: null as string | null })),
  z.object({ id: z.string(), lookup_key: z.string().nullish().transform((v) => v ?? null) }),
]);

export const StripeSubscriptionSchema = z.object({
  id: z.string(),
  customer: idOf,
  status: z.string(),
  metadata,
  /** Older API versions only. */
  current_period_end: z.number().nullish(),
  items: z
    .object({
      data: z.array(
        z.object({
          price: StripePriceSchema.nullish(),
          current_period_end: z.number().nullish(),
        }),
      ),
    })
    .nullish(),
});
export type StripeSubscription = z.infer<typeof StripeSubscriptionSchema>;

export const StripeCheckoutSessionSchema = z.object({
  id: z.string(),
  customer: idOf.nullish(),
  subscription: idOf.nullish(),
  client_reference_id: z.string().nullish(),
  metadata,
});
export type StripeCheckoutSession = z.infer<typeof StripeCheckoutSessionSchema>;

export const StripeInvoiceSchema = z.object({
  id: z.string(),
  customer: idOf.nullish(),
  /** Older API versions only. */
  subscription: idOf.nullish(),
  parent: z
    .object({
      subscription_details: z.object({ subscription: idOf, metadata }).nullish(),
    })
    .nullish(),
  lines: z
    .object({ data: z.array(z.object({ period: z.object({ end: z.number() }).nullish() })) })
    .nullish(),
});
export type StripeInvoice = z.infer<typeof StripeInvoiceSchema>;
