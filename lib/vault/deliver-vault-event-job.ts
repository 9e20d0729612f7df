import { defineJob, type JobDefinition } from "@/lib/jobs/define-job";
import { deliverVaultEvent } from "./deliver-vault-event";
import { DeliverVaultEventPayloadSchema, deliverVaultEventDeclaration } from "./deliver-vault-event-payload";

export { DELIVER_VAULT_EVENT_JOB } from "./deliver-vault-event-payload";

/**
 * One attempt to deliver a `signer_document_signed` event. Enqueued in the transaction that records
 * the e-signature (outbox), keyed by the e-signature id. Runs on the outbound webhooks' engine: the
 * retries (over about three days) are new jobs scheduled by the attempt before, so the engine's own
 * retries here only cover a crash in the middle of an attempt.
 */
export const deliverVaultEventJob: JobDefinition<typeof DeliverVaultEventPayloadSchema> = defineJob({
  ...deliverVaultEventDeclaration,
  handler: async (ctx, payload) => {
    const outcome = await ctx.step("deliver", () => deliverVaultEvent(ctx.db, payload));
    ctx.logger.info("vault event handled", { eSignatureId: payload.eSignatureId, attempt: payload.attempt, outcome });
  },
});
