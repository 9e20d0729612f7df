import { defineJob } from "@/lib/jobs/define-job";
import { sendSignerSmsDeclaration } from "@/lib/sms/send-signer-sms-payload";
import { deliverSignerSms } from "./deliver-signer-sms";

/**
 * Delivers one queued text (`sms_messages` row) through Twilio (payload: lib/sms/send-signer-sms-payload.ts).
 * It lives with signer access because the text carries the signer's access link, computed from
 * `linkId` when it is sent.
 */
export const sendSignerSmsJob = defineJob({
  ...sendSignerSmsDeclaration,
  handler: async (ctx, payload) => {
    await ctx.step("send", () => deliverSignerSms(ctx.db, payload).then(() => undefined));
  },
});
