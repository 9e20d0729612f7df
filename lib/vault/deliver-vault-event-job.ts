import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { deliverVaultEvent } from "./deliver-vault-event";
import { VaultEventSchema } from "./vault-event";

export const DELIVER_VAULT_EVENT_JOB = "deliver-vault-event";

/**
 * Delivers a `signer_document_signed` event. Enqueued in the transaction that records the
 * e-signature (outbox), keyed by the e-signature id.
 */
export const deliverVaultEventJob = defineJob({
  name: DELIVER_VAULT_EVENT_JOB,
  schema: z.object({ eSignatureId: z.uuid(), event: VaultEventSchema }),
  maxAttempts: 12,
  handler: async (ctx, payload) => {
    const outcome = await ctx.step("deliver", () => deliverVaultEvent(ctx.db, payload));
    ctx.logger.info("vault event handled", { eSignatureId: payload.eSignatureId, outcome });
  },
});
