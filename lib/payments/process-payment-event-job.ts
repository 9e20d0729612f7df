import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { applyPaymentEvent } from "./apply-payment-event";

export const PROCESS_PAYMENT_EVENT_JOB = "process-payment-event";

/**
 * Applies a stored Stripe event to billing. An event whose organization is not known yet (an invoice
 * delivered before the checkout that links its customer) fails and is retried with backoff; 21
 * attempts span about two hours.
 */
export const processPaymentEventJob = defineJob({
  name: PROCESS_PAYMENT_EVENT_JOB,
  schema: z.object({ inboundEventId: z.string().uuid() }),
  maxAttempts: 21,
  handler: async (ctx, { inboundEventId }) => {
    await ctx.step("apply", () => applyPaymentEvent(ctx.db, { inboundEventId }));
  },
});
