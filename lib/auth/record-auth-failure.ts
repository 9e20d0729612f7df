import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { authThrottles } from "@/db/schema";
import { AUTH_THROTTLE_LOCK_SECONDS, AUTH_THROTTLE_WINDOW_SECONDS, type AuthThrottleRule } from "./auth-throttle-rules";

export type RecordAuthFailureOptions = { rules: AuthThrottleRule[]; now?: Date };

/**
 * Counts one failed attempt against every rule's key, in one atomic upsert per key so concurrent
 * attempts in several processes all count. A count that starts a new window restarts at 1; the
 * attempt that reaches a rule's limit locks its key for AUTH_THROTTLE_LOCK_SECONDS.
 * Returns the seconds until the longest lock ends, or 0 when nothing is locked.
 */
export async function recordAuthFailure(db: Db, options: RecordAuthFailureOptions): Promise<number> {
  const now = options.now ?? new Date();
  const windowStart = new Date(now.getTime() - AUTH_THROTTLE_WINDOW_SECONDS * 1000);
  const lockUntil = new Date(now.getTime() + AUTH_THROTTLE_LOCK_SECONDS * 1000);
  let retryAfterSeconds = 0;
  for (const rule of options.rules) {
    // Raw SQL parameters are not mapped by the column type: pass timestamps as text with a cast.
    const expired = sql`${authThrottles.windowStartedAt} < ${windowStart.toISOString()}::timestamptz`;
    const failures = sql`case when ${expired} then 1 else ${authThrottles.failures} + 1 end`;
    const [row] = await db
      .insert(authThrottles)
      .values({ key: rule.key, failures: 1, windowStartedAt: now, lockedUntil: rule.lockAfter <= 1 ? lockUntil : null })
      .onConflictDoUpdate({
        target: authThrottles.key,
        set: {
          failures,
          windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${authThrottles.windowStartedAt} end`,
          lockedUntil: sql`case when ${failures} >= ${rule.lockAfter} then ${lockUntil.toISOString()}::timestamptz else ${authThrottles.lockedUntil} end`,
          updatedAt: now,
        },
      })
      .returning({ lockedUntil: authThrottles.lockedUntil });
    if (row?.lockedUntil && row.lockedUntil > now) {
      retryAfterSeconds = Math.max(retryAfterSeconds, Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000));
    }
  }
  return retryAfterSeconds;
}
