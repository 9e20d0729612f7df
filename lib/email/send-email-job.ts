import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { renderSignerEmail, signerCodeEmailSchema, signerLinkEmailSchema } from "./render-signer-email";
import { sendEmail } from "./send-email";

export const SEND_EMAIL_JOB = "send-email";

/** An email rendered when it is enqueued (one that carries no access link, code or other secret). */
const renderedEmailSchema = z.object({
  to: z.email(),
  subject: z.string().min(1).max(500),
  text: z.string().min(1).max(100_000),
  html: z.string().min(1).max(200_000).optional(),
  replyTo: z.email().optional(),
  /** The sender's display name ("<Lender> via Closing & Signing"); EMAIL_FROM's address stays the sender. */
  fromName: z.string().min(1).max(200).optional(),
});

/**
 * Delivers one email. A signer's email that carries an access link or a one-time code is enqueued by
 * id and kind (`{ message: "signer-invitation", linkId }`, `{ message: "signer-code", challengeId }`)
 * and rendered here, when it is sent (`renderSignerEmail`): no link or code is ever in the payload.
 * Other mails are rendered by a template of `lib/email/templates/` when they are enqueued. Enqueue
 * with an idempotency key naming what the mail is about (e.g. `invite:<signerId>`) so a retried
 * request does not mail twice.
 */
export const sendEmailJob = defineJob({
  name: SEND_EMAIL_JOB,
  schema: z.union([signerLinkEmailSchema, signerCodeEmailSchema, renderedEmailSchema]),
  maxAttempts: 10,
  handler: async (ctx, payload) => {
    await ctx.step("send", async () => {
      if (!("message" in payload)) {
        await sendEmail(ctx.db, payload);
        return;
      }
      const email = await renderSignerEmail(ctx.db, payload);
      if (!email) {
        ctx.logger.info("send-email: the signer or package is gone; nothing to send", { message: payload.message });
        return;
      }
      await sendEmail(ctx.db, email);
    });
  },
});
