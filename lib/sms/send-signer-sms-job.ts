import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { deliverSignerSms } from "./deliver-signer-sms";

export const SEND_SIGNER_SMS_JOB = "send-signer-sms";

/**
 * Delivers one queued text (`sms_messages` row) through Twilio. The payload holds ids only: the body
 * (the lender's name, the signer's language, the access link computed from `linkId`) is written when
 * the text is sent. `body` is the form of texts queued before that (rendered at enqueue time).
 */
export const sendSignerSmsJob = defineJob({
  name: SEND_SIGNER_SMS_JOB,
  schema: z.union([z.object({ smsMessageId: z.uuid(), linkId: z.uuid() }), z.object({ smsMessageId: z.uuid(), body: z.string().min(1).max(1600) })]),
  maxAttempts: 10,
  handler: async (ctx, payload) => {
    await ctx.step("send", () => deliverSignerSms(ctx.db, payload).then(() => undefined));
  },
});
