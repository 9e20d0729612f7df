import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { agentLinkEmailSchema, renderAgentLinkEmail } from "@/lib/settlement-agent/render-agent-link-email";
import { memberInviteEmailSchema, renderMemberInviteEmail } from "@/lib/workspace/render-member-invite-email";
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
 * and rendered here, when it is sent (`renderSignerEmail`), as is the settlement agent's link
 * (`{ message: "settlement-agent-link", agentLinkId }`) and a workspace invitation
 * (`{ message: "member-invitation", membershipId, … }`): no link or code is ever in the payload.
 * Other mails are rendered by a template of `lib/email/templates/` when they are enqueued. Enqueue
 * with an idempotency key naming what the mail is about (e.g. `invite:<signerId>`) so a retried
 * request does not mail twice.
 */
export const sendEmailJob = defineJob({
  name: SEND_EMAIL_JOB,
  schema: z.union([signerLinkEmailSchema, signerCodeEmailSchema, agentLinkEmailSchema, memberInviteEmailSchema, renderedEmailSchema]),
  maxAttempts: 10,
  handler: async (ctx, payload) => {
    await ctx.step("send", async () => {
      if (!("message" in payload)) {
        await sendEmail(ctx.db, payload);
        return;
      }
      const email =
        payload.message === "settlement-agent-link"
          ? await renderAgentLinkEmail(ctx.db, payload)
          : payload.message === "member-invitation"
            ? await renderMemberInviteEmail(ctx.db, payload)
            : await renderSignerEmail(ctx.db, payload);
      if (!email) {
        ctx.logger.info("send-email: the recipient's link or package is gone; nothing to send", { message: payload.message });
        return;
      }
      await sendEmail(ctx.db, email);
    });
  },
});
