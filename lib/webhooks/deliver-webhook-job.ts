import { defineJob, type JobDefinition } from "@/lib/jobs/define-job";
import { deliverWebhook } from "./deliver-webhook";
import { DeliverWebhookPayloadSchema, deliverWebhookDeclaration } from "./deliver-webhook-payload";

/**
 * One attempt of one webhook delivery. The retries of a delivery (over about three days) are new
 * jobs scheduled by the attempt before (`runAt`), since the engines' own retries stop within minutes;
 * the engine's retries here only cover a crash in the middle of an attempt.
 */
export const deliverWebhookJob: JobDefinition<typeof DeliverWebhookPayloadSchema> = defineJob({
  ...deliverWebhookDeclaration,
  handler: async (ctx, payload) => {
    const outcome = await ctx.step("deliver", () => deliverWebhook(ctx.db, payload));
    ctx.logger.info("webhook delivery attempt", { deliveryId: payload.deliveryId, attempt: payload.attempt, outcome });
  },
});
