import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, packageSeals } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { getPackageSeal, type PackageSealView } from "./get-package-seal";
import { SEAL_PACKAGE_JOB, sealPackageJob } from "./seal-package-job";

/**
 * A manager's "try sealing again" once the job has used up its attempts (about 37 minutes of
 * backoff): enqueues a fresh seal job unless the package is sealed or a seal job is still queued or
 * running (then nothing changes). 409 for a package that has not completed.
 */
export async function retryPackageSeal(db: Db, options: { principal: Principal; packageId: string }): Promise<PackageSealView> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:write" });
  await db.transaction(async (tx) => {
    const [seal] = await tx.select().from(packageSeals).where(eq(packageSeals.packageId, signing.id)).for("update");
    if (!seal) throw Conflict("This signing package is not complete, so there is nothing to seal.");
    if (seal.status === "sealed") return;
    const [active] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.name, SEAL_PACKAGE_JOB), inArray(jobs.status, ["queued", "running"]), sql`${jobs.payload}->>'packageId' = ${signing.id}`))
      .limit(1);
    if (active) return;
    await enqueueJob(tx, sealPackageJob, { packageId: signing.id }, { idempotencyKey: `seal:${signing.id}:retry:${seal.attempts}` });
  });
  return (await getPackageSeal(db, { packageId: signing.id }))!;
}
