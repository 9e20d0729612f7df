import { defineJob } from "@/lib/jobs/define-job";
import { sendEmail } from "@/lib/email/send-email";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { renderSignerEmail } from "@/lib/signer-access/render-signer-email";
import { renderAgentLinkEmail } from "@/lib/settlement-agent/render-agent-link-email";
import { renderMemberInviteEmail } from "@/lib/workspace/render-member-invite-email";

/**
 * Delivers one email (payloads: lib/email/send-email-payload.ts). A mail enqueued by ids is rendered
 * here, when it is sent, by the folder that owns it: a signer's invitation, link or code
 * (`renderSignerEmail`), the settlement agent's link (`renderAgentLinkEmail`), a workspace invitation
 * (`renderMemberInviteEmail`). It lives with the registry, above those folders, because it reads them
 * all; they enqueue it through `sendEmailDeclaration`.
 */
export const sendEmailJob = defineJob({
  ...sendEmailDeclaration,
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
