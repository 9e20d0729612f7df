import type { Db } from "@/db/client";
import { packageSeals } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { sealPackageJob } from "./seal-package-job";

/**
 * Called in the transaction that completes a package: records the audit head at completion (the
 * hash the certificate will carry) in a `pending` seal row and enqueues the seal job (outbox), keyed
 * by the package so a package is sealed by one job.
 */
export async function requestPackageSeal(tx: Db, { packageId, auditHeadHash }: { packageId: string; auditHeadHash: string }): Promise<void> {
  await tx.insert(packageSeals).values({ packageId, auditHeadHash }).onConflictDoNothing({ target: packageSeals.packageId });
  await enqueueJob(tx, sealPackageJob, { packageId }, { idempotencyKey: `seal:${packageId}` });
}
