import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { sendEmail } from "./send-email";

export const SEND_EMAIL_JOB = "send-email";

/**
 * Delivers one email, rendered by a template of `lib/email/templates/` (subject, text and HTML). Enqueue with an idempotency key naming what the mail is about (e.g.
 * `invite:<signerId>`) so a retried request does not mail twice.
 */
export const sendEmailJob = defineJob({
  name: SEND_EMAIL_JOB,
  schema: z.object({
    to: z.email(),
    subject: z.string().min(1).max(500),
    text: z.string().min(1).max(100_000),
    html: z.string().min(1).max(200_000).optional(),
    replyTo: z.email().optional(),
    /** The sender's display name ("<Lender> via Closing & Signing"); EMAIL_FROM's address stays the sender. */
    fromName: z.string().min(1).max(200).optional(),
  }),
  maxAttempts: 10,
  handler: async (ctx, email) => {
    await ctx.step("send", () => sendEmail(ctx.db, email).then(() => undefined));
  },
});
