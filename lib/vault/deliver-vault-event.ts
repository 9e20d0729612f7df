import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { vaultDeliveries } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { errorDetails } from "@/lib/errors";
import { VaultEventSchema, type VaultEvent } from "./vault-event";

export const VAULT_TIMEOUT_MS = 10_000;

export type DeliverVaultEventOptions = {
  eSignatureId: string;
  event: VaultEvent;
  /** How long the vault has to answer; a slower answer counts as a failed attempt. */
  timeoutMs?: number;
};

export type VaultDeliveryOutcome = "delivered" | "already_delivered" | "not_configured";

/**
 * POSTs one `signer_document_signed` event to VAULT_WEBHOOK_URL and records the attempt in
 * `vault_deliveries`. Throws on a non-2xx answer, a network error or a timeout, so the job engine
 * retries with backoff. Once an attempt got a 2xx the event is never sent again: the check runs
 * before every send, and `Idempotency-Key` (the e-signature id) lets the vault drop a duplicate
 * caused by a crash between its answer and our record of it.
 */
export async function deliverVaultEvent(db: Db, options: DeliverVaultEventOptions): Promise<VaultDeliveryOutcome> {
  const env = getEnv();
  if (!env.VAULT_WEBHOOK_URL) return "not_configured";

  const [delivered] = await db
    .select({ id: vaultDeliveries.id })
    .from(vaultDeliveries)
    .where(
      and(
        eq(vaultDeliveries.eSignatureId, options.eSignatureId),
        gte(vaultDeliveries.statusCode, 200),
        lt(vaultDeliveries.statusCode, 300),
      ),
    )
    .limit(1);
  if (delivered) return "already_delivered";

  const body = JSON.stringify(VaultEventSchema.parse(options.event));
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "Idempotency-Key": options.eSignatureId,
  };
  if (env.VAULT_WEBHOOK_SECRET) headers.Authorization = `Bearer ${env.VAULT_WEBHOOK_SECRET}`;

  const startedAt = performance.now();
  let statusCode: number | null = null;
  let failure: string | null = null;
  try {
    const response = await fetch(env.VAULT_WEBHOOK_URL, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? VAULT_TIMEOUT_MS),
    });
    statusCode = response.status;
    // Drain the body so the connection can be reused; its content is not evidence we keep.
    await response.arrayBuffer().catch(() => undefined);
  } catch (error) {
    const { name, message } = errorDetails(error);
    failure = `${name}: ${message}`.slice(0, 1_000);
  }
  const durationMs = Math.round(performance.now() - startedAt);

  await db.insert(vaultDeliveries).values({
    eSignatureId: options.eSignatureId,
    attempt: sql`(select coalesce(max(${vaultDeliveries.attempt}), 0) + 1 from ${vaultDeliveries} where ${vaultDeliveries.eSignatureId} = ${options.eSignatureId})`,
    statusCode,
    error: failure ?? (statusCode !== null && (statusCode < 200 || statusCode >= 300) ? `HTTP ${statusCode}` : null),
    durationMs,
  });

  if (failure) throw new Error(`Vault delivery failed: ${failure}`);
  if (statusCode === null || statusCode < 200 || statusCode >= 300) {
    throw new Error(`Vault answered HTTP ${statusCode ?? "?"}`);
  }
  return "delivered";
}
