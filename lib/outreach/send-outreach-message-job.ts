import { and, eq } from "drizzle-orm";
import { NonRetriableError } from "inngest";
import { z } from "zod";
import { outreachMessages } from "@/db/schema";
import { sendEmail } from "@/lib/email/send-email";
import { getEnv } from "@/lib/env";
import { defineJob } from "@/lib/jobs/define-job";

export const SEND_OUTREACH_MESSAGE_JOB = "send-outreach-message";
const MAX_ATTEMPTS = 6;

/** SMTP answers 5xx for a permanent refusal (unknown mailbox, rejected sender): retrying cannot help. */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500;
};

/**
 * Delivers one outreach message with `Reply-To: reply+<token>@INBOUND_EMAIL_DOMAIN` (so the inbound
 * email worker can thread replies) and moves it queued → sent, or → failed once retries are spent
 * or the SMTP server refused it permanently. Delivery is at least once: a crash between the SMTP
 * hand-off and the status update sends the mail again.
 */
export const sendOutreachMessageJob = defineJob({
  name: SEND_OUTREACH_MESSAGE_JOB,
  schema: z.object({ messageId: z.uuid() }),
  maxAttempts: MAX_ATTEMPTS,
  handler: async (ctx, { messageId }) => {
    const [message] = await ctx.db.select().from(outreachMessages).where(eq(outreachMessages.id, messageId));
    if (!message) throw new NonRetriableError(`Outreach message ${messageId} does not exist.`);
    if (message.status !== "queued") return;
    const stillQueued = and(eq(outreachMessages.id, messageId), eq(outreachMessages.status, "queued"));
    try {
      await ctx.step("send", () =>
        sendEmail(ctx.db, {
          to: message.recipientEmail,
          subject: message.subject,
          text: message.body,
          replyTo: `reply+${message.replyToken}@${getEnv().INBOUND_EMAIL_DOMAIN}`,
        }).then(() => undefined),
      );
    } catch (error) {
      const final = isPermanent(error) || ctx.attempt >= MAX_ATTEMPTS;
      const lastError = error instanceof Error ? error.message.slice(0, 1000) : String(error);
      await ctx.db
        .update(outreachMessages)
        .set({ lastError, ...(final ? { status: "failed" as const } : {}) })
        .where(stillQueued);
      if (final) throw new NonRetriableError(`Outreach message ${messageId} failed: ${lastError}`);
      throw error;
    }
    await ctx.step("mark-sent", () =>
      ctx.db.update(outreachMessages).set({ status: "sent", sentAt: new Date(), lastError: null }).where(stillQueued).then(() => undefined),
    );
  },
});
