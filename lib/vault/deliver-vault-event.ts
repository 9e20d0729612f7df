import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { vaultDeliveries } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { sendWebhookRequest } from "@/lib/webhooks/send-webhook-request";
import { webhookRetryDelayMs } from "@/lib/webhooks/webhook-backoff";
import { deliverVaultEventDeclaration, vaultJobKey } from "./deliver-vault-event-payload";
import { VaultEventSchema, type VaultEvent } from "./vault-event";

export const VAULT_TIMEOUT_MS = 10_000;

export type DeliverVaultEventOptions = {
  eSignatureId: string;
  event: VaultEvent;
  /** Which attempt this is (1-based); 1 when omitted. */
  attempt?: number;
  /** How long the vault has to answer; a slower answer counts as a failed attempt. */
  timeoutMs?: number;
  now?: () => Date;
  random?: () => number;
};

/**
 * `delivered`: this attempt got a 2xx. `retrying`: it failed and the next attempt is scheduled.
 * `failed`: it failed and was the last. `already_delivered` / `already_attempted`: an earlier run did
 * the work (a retried job sends nothing). `not_configured`: no VAULT_WEBHOOK_URL.
 */
export type VaultDeliveryOutcome = "delivered" | "retrying" | "failed" | "already_delivered" | "already_attempted" | "not_configured";

const isSuccess = (code: number | null) => code !== null && code >= 200 && code < 300;

/**
 * Attempt `attempt` to POST one `signer_document_signed` event to VAULT_WEBHOOK_URL, on the outbound
 * webhooks' engine: the same request (bounded by a timeout, redirects not followed) and the same
 * schedule of retries (lib/webhooks/webhook-backoff.ts: 15 attempts over about three days, with
 * jitter), each retry a job scheduled in the transaction that records the failed attempt in
 * `vault_deliveries`. The payload and headers are the vault contract's, unchanged: the six fields,
 * `Authorization: Bearer VAULT_WEBHOOK_SECRET` when set, and `Idempotency-Key` (the e-signature id) so
 * the vault drops a duplicate caused by a crash between its answer and our record of it.
 * Once an attempt got a 2xx the event is never sent again, and an attempt already recorded is not
 * made twice. The vault's address is the operator's own setting, so a private one is allowed.
 */
export async function deliverVaultEvent(db: Db, options: DeliverVaultEventOptions): Promise<VaultDeliveryOutcome> {
  const env = getEnv();
  if (!env.VAULT_WEBHOOK_URL) return "not_configured";
  const attempt = options.attempt ?? 1;

  const earlier = await db
    .select({ attempt: vaultDeliveries.attempt, statusCode: vaultDeliveries.statusCode })
    .from(vaultDeliveries)
    .where(eq(vaultDeliveries.eSignatureId, options.eSignatureId));
  if (earlier.some((row) => isSuccess(row.statusCode))) return "already_delivered";
  if (earlier.some((row) => row.attempt >= attempt)) return "already_attempted";

  const body = JSON.stringify(VaultEventSchema.parse(options.event));
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "Idempotency-Key": options.eSignatureId,
    "User-Agent": "ClosingSigning-Webhooks/1",
  };
  if (env.VAULT_WEBHOOK_SECRET) headers.Authorization = `Bearer ${env.VAULT_WEBHOOK_SECRET}`;

  const response = await sendWebhookRequest({
    url: env.VAULT_WEBHOOK_URL,
    body,
    headers,
    allowLoopback: true,
    anyAddress: true,
    timeoutMs: options.timeoutMs ?? VAULT_TIMEOUT_MS,
  });
  const delivered = isSuccess(response.statusCode);
  const failedAt = (options.now ?? (() => new Date()))();
  const delay = delivered ? null : webhookRetryDelayMs(attempt, options.random);

  await db.transaction(async (tx) => {
    // A second run of this attempt that raced the first conflicts here and records nothing more.
    const inserted = await tx
      .insert(vaultDeliveries)
      .values({
        eSignatureId: options.eSignatureId,
        attempt,
        statusCode: response.statusCode,
        error: response.error ?? (delivered ? null : `HTTP ${response.statusCode}`),
        durationMs: response.durationMs,
      })
      .onConflictDoNothing({ target: [vaultDeliveries.eSignatureId, vaultDeliveries.attempt] })
      .returning({ id: vaultDeliveries.id });
    if (inserted.length === 0 || delay === null) return;
    await enqueueJob(
      tx,
      deliverVaultEventDeclaration,
      { eSignatureId: options.eSignatureId, event: options.event, attempt: attempt + 1 },
      { idempotencyKey: vaultJobKey(options.eSignatureId, attempt + 1), runAt: new Date(failedAt.getTime() + delay) },
    );
  });
  if (delivered) return "delivered";
  return delay === null ? "failed" : "retrying";
}

