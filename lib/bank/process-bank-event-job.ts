import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { applyBankEvent } from "./apply-bank-event";

export const PROCESS_BANK_EVENT_JOB = "process-bank-event";

/** Applies a stored Plaid item webhook to the bank item's health (see applyBankEvent). */
export const processBankEventJob = defineJob({
  name: PROCESS_BANK_EVENT_JOB,
  schema: z.object({ inboundEventId: z.string().uuid() }),
  maxAttempts: 10,
  handler: async (ctx, { inboundEventId }) => {
    await ctx.step("apply", () => applyBankEvent(ctx.db, { inboundEventId }));
  },
});
