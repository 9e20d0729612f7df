import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { deliverSignerSms } from "./deliver-signer-sms";

export const SEND_SIGNER_SMS_JOB = "send-signer-sms";

/**
 * Delivers one queued text (`sms_messages` row) through Twilio. The body carries the signer's access
 * link, so it lives only in this payload, as an email's text does in `send-email`'s.
 */
export const sendSignerSmsJob = defineJob({
  name: SEND_SIGNER_SMS_JOB,
  schema: z.object({ smsMessageId: z.uuid(), body: z.string().min(1).max(1600) }),
  maxAttempts: 10,
  handler: async (ctx, payload) => {
    await ctx.step("send", () => deliverSignerSms(ctx.db, payload).then(() => undefined));
  },
});
