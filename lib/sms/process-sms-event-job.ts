import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { applySmsEvent } from "./apply-sms-event";

export const PROCESS_SMS_EVENT_JOB = "process-sms-event";

/** Applies a stored Twilio webhook (delivery status, STOP or START reply); see applySmsEvent. */
export const processSmsEventJob = defineJob({
  name: PROCESS_SMS_EVENT_JOB,
  schema: z.object({ inboundEventId: z.string().uuid() }),
  maxAttempts: 10,
  handler: async (ctx, { inboundEventId }) => {
    await ctx.step("apply", () => applySmsEvent(ctx.db, { inboundEventId }).then(() => undefined));
  },
});
