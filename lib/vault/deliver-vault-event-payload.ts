import { z } from "zod";
import type { JobDeclaration } from "@/lib/jobs/define-job";
import { VaultEventSchema } from "./vault-event";

/**
 * The payload of the `deliver-vault-event` job: the e-signature, its event (sent unchanged), and which
 * attempt this job makes (1 when the signature is recorded; each failed attempt schedules the next).
 * Jobs queued before attempts were numbered carry none and are attempt 1.
 */
export const DeliverVaultEventPayloadSchema = z.object({
  eSignatureId: z.uuid(),
  event: VaultEventSchema,
  attempt: z.number().int().min(1).default(1),
});

export const DELIVER_VAULT_EVENT_JOB = "deliver-vault-event";

/** The idempotency key of attempt `attempt`'s job: the e-signature id for the first (as it always was). */
export function vaultJobKey(eSignatureId: string, attempt: number): string {
  return attempt === 1 ? eSignatureId : `${eSignatureId}:${attempt}`;
}

/** The vault job as its enqueuers need it; `deliver-vault-event-job.ts` adds the handler. */
export const deliverVaultEventDeclaration: JobDeclaration<typeof DeliverVaultEventPayloadSchema> = {
  name: DELIVER_VAULT_EVENT_JOB,
  schema: DeliverVaultEventPayloadSchema,
  maxAttempts: 3,
};
