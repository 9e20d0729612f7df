import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { eSignatures, jobs, packageDocuments, packageSigners, vaultDeliveries } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { iso } from "@/lib/iso";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { WEBHOOK_MAX_ATTEMPTS } from "@/lib/webhooks/webhook-backoff";
import { DELIVER_VAULT_EVENT_JOB, vaultJobKey } from "./deliver-vault-event-payload";

/**
 * Where one e-signature's `signer_document_signed` event stands:
 * `delivered` (an attempt got a 2xx), `retrying` (attempts failed, the job will try again),
 * `failed` (the job gave up), `pending` (queued, not tried yet), `not_configured` (no
 * VAULT_WEBHOOK_URL when it was signed, so no delivery job was made, or the job found none).
 */
export type VaultDeliveryStatus = "delivered" | "retrying" | "failed" | "pending" | "not_configured";

export type VaultDeliveryAttempt = { attempt: number; statusCode: number | null; error: string | null; durationMs: number; at: string };

export type SigningVaultDelivery = {
  eSignatureId: string;
  signerName: string;
  documentName: string;
  signedAt: string;
  status: VaultDeliveryStatus;
  attempts: VaultDeliveryAttempt[];
  /** When the job tries again (only while `retrying` or `pending`). */
  nextAttemptAt: string | null;
};

const isSuccess = (code: number | null) => code !== null && code >= 200 && code < 300;

/**
 * The vault deliveries of one package: one row per e-signature (oldest first) with every attempt
 * recorded in `vault_deliveries` and the delivery job's state. Scope as for reading the package
 * (`signings:read`): a package outside the caller's scope is 404 like a missing one.
 */
export async function listSigningVaultDeliveries(db: Db, options: { principal: Principal; packageId: string }): Promise<SigningVaultDelivery[]> {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const signatures = await db
    .select({
      id: eSignatures.id,
      createdAt: eSignatures.createdAt,
      signerName: packageSigners.name,
      documentName: packageDocuments.name,
    })
    .from(eSignatures)
    .innerJoin(packageSigners, eq(packageSigners.id, eSignatures.signerId))
    .innerJoin(packageDocuments, eq(packageDocuments.id, eSignatures.documentId))
    .where(eq(eSignatures.packageId, signing.id))
    .orderBy(asc(eSignatures.createdAt), asc(eSignatures.id));
  if (signatures.length === 0) return [];
  const ids = signatures.map((s) => s.id);

  const [attemptRows, jobRows] = await Promise.all([
    db.select().from(vaultDeliveries).where(inArray(vaultDeliveries.eSignatureId, ids)).orderBy(asc(vaultDeliveries.attempt)),
    // Attempt n's job is keyed vaultJobKey(e-signature id, n) (record-esignature.ts enqueues the first
    // in the same transaction; each failed attempt enqueues the next).
    db
      .select({ key: jobs.idempotencyKey, status: jobs.status, runAt: jobs.runAt })
      .from(jobs)
      .where(
        and(
          eq(jobs.name, DELIVER_VAULT_EVENT_JOB),
          inArray(
            jobs.idempotencyKey,
            ids.flatMap((id) => Array.from({ length: WEBHOOK_MAX_ATTEMPTS }, (_, i) => vaultJobKey(id, i + 1))),
          ),
        ),
      ),
  ]);

  return signatures.map((signature) => {
    const attempts = attemptRows
      .filter((a) => a.eSignatureId === signature.id)
      .map((a) => ({ attempt: a.attempt, statusCode: a.statusCode, error: a.error, durationMs: a.durationMs, at: iso(a.createdAt) }));
    const jobsOf = jobRows.filter((j) => j.key === signature.id || j.key?.startsWith(`${signature.id}:`));
    const waitingJob = jobsOf.find((j) => j.status === "queued" || j.status === "running");
    let status: VaultDeliveryStatus;
    if (attempts.some((a) => isSuccess(a.statusCode))) status = "delivered";
    else if (waitingJob) status = attempts.length > 0 ? "retrying" : "pending";
    // Failed attempts with none scheduled after the last: the retries ran out (or the engine gave up).
    else if (attempts.length > 0 || jobsOf.some((j) => j.status === "failed")) status = "failed";
    else status = "not_configured";
    const waiting = (status === "retrying" || status === "pending") && waitingJob?.status === "queued";
    return {
      eSignatureId: signature.id,
      signerName: signature.signerName,
      documentName: signature.documentName,
      signedAt: iso(signature.createdAt),
      status,
      attempts,
      nextAttemptAt: waiting ? iso(waitingJob.runAt) : null,
    };
  });
}
