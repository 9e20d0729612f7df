import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSeals } from "@/db/schema";

/**
 * Marks a package's seal `failed` with the error (the job retries with backoff; managers see the
 * status and the message through `getPackageSeal`). Never overwrites `sealed`.
 */
export async function recordSealFailure(db: Db, { packageId, error }: { packageId: string; error: string }): Promise<void> {
  await db
    .insert(packageSeals)
    .values({ packageId, status: "failed", attempts: 1, lastError: error.slice(0, 2_000) })
    .onConflictDoUpdate({
      target: packageSeals.packageId,
      set: {
        status: sql`case when ${packageSeals.status} = 'sealed' then ${packageSeals.status} else 'failed'::seal_status end`,
        attempts: sql`${packageSeals.attempts} + 1`,
        lastError: sql`case when ${packageSeals.status} = 'sealed' then ${packageSeals.lastError} else ${error.slice(0, 2_000)} end`,
        updatedAt: sql`now()`,
      },
    });
}
