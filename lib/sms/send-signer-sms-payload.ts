import { z } from "zod";
import type { JobDeclaration } from "@/lib/jobs/define-job";

export const SEND_SIGNER_SMS_JOB = "send-signer-sms";

/**
 * What the send-signer-sms job carries: ids only (`smsMessageId`, `linkId`); the body (the lender's
 * name, the signer's language, the access link computed from `linkId`) is written when the text is
 * sent (lib/signer-access/send-signer-sms-job.ts). `body` is the form of texts queued before that.
 */
export const sendSignerSmsPayloadSchema = z.union([
  z.object({ smsMessageId: z.uuid(), linkId: z.uuid() }),
  z.object({ smsMessageId: z.uuid(), body: z.string().min(1).max(1600) }),
]);

/** The send-signer-sms job as enqueuers see it (`queueSignerSms`); the handler is signer access's. */
export const sendSignerSmsDeclaration: JobDeclaration<typeof sendSignerSmsPayloadSchema> = {
  name: SEND_SIGNER_SMS_JOB,
  schema: sendSignerSmsPayloadSchema,
  maxAttempts: 10,
};
