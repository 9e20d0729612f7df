import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { authThrottles } from "@/db/schema";
import { AUTH_THROTTLE_LOCK_SECONDS, AUTH_THROTTLE_WINDOW_SECONDS, type AuthThrottleRule } from "./auth-throttle-rules";

/**
 * The outcome of claiming one attempt at a secret: either refused (locked; nothing may be compared),
 * or allowed, with `retryAfterSecondsIfWrong` the lock this attempt started (0 when it started none):
 * a wrong answer is refused with it, a right one clears the count (`clearAuthFailures`).
 */
export type ClaimedAuthAttempt = { refused: true; retryAfterSeconds: number } | { refused: false; retryAfterSecondsIfWrong: number };

/**
 * Counts an attempt against every rule's key BEFORE the secret is compared, in one atomic upsert
 * per key: the increment and the read of the lock are one statement, so concurrent attempts (in one
 * process or several) are serialised by the row lock and at most `lockAfter` of them per window are
 * ever allowed to compare. The attempt that brings a key to `lockAfter` is still compared and locks
 * the key for AUTH_THROTTLE_LOCK_SECONDS; every later one is refused until the lock ends, whatever it
 * carries. A window that has ended, or a lock that has, starts the count again at 1.
 *
 * Counting first means a right answer is counted too: the caller clears the keys when it passes.
 * For proofs where a guess is the threat (a signer's six-digit code, an access code, and any future
 * link holder's proof); `recordAuthFailure` after the fact stays for limits that only slow down.
 */
export async function claimAuthAttempt(db: Db, options: { rules: AuthThrottleRule[]; now?: Date }): Promise<ClaimedAuthAttempt> {
  const now = options.now ?? new Date();
  const nowText = now.toISOString();
  const windowStart = new Date(now.getTime() - AUTH_THROTTLE_WINDOW_SECONDS * 1000).toISOString();
  const lockUntil = new Date(now.getTime() + AUTH_THROTTLE_LOCK_SECONDS * 1000);
  let refusedFor = 0;
  let lockedFor = 0;
  for (const rule of options.rules) {
    // Raw SQL parameters are not mapped by the column type: timestamps go as text with a cast.
    const stillLocked = sql`(${authThrottles.lockedUntil} is not null and ${authThrottles.lockedUntil} > ${nowText}::timestamptz)`;
    const restart = sql`(not ${stillLocked} and (${authThrottles.windowStartedAt} < ${windowStart}::timestamptz or ${authThrottles.lockedUntil} is not null))`;
    const failures = sql`case when ${restart} then 1 else ${authThrottles.failures} + 1 end`;
    const [row] = await db
      .insert(authThrottles)
      .values({ key: rule.key, failures: 1, windowStartedAt: now, lockedUntil: rule.lockAfter <= 1 ? lockUntil : null })
      .onConflictDoUpdate({
        target: authThrottles.key,
        set: {
          failures,
          windowStartedAt: sql`case when ${restart} then ${nowText}::timestamptz else ${authThrottles.windowStartedAt} end`,
          lockedUntil: sql`case when ${stillLocked} then ${authThrottles.lockedUntil} when ${failures} >= ${rule.lockAfter} then ${lockUntil.toISOString()}::timestamptz else null end`,
          updatedAt: now,
        },
      })
      .returning({ failures: authThrottles.failures, lockedUntil: authThrottles.lockedUntil });
    if (!row) continue;
    const seconds = row.lockedUntil && row.lockedUntil > now ? Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000) : 0;
    // Past the limit: the key was locked before this attempt (or by a concurrent one that reached it).
    if (row.failures > rule.lockAfter) refusedFor = Math.max(refusedFor, seconds);
    else lockedFor = Math.max(lockedFor, seconds);
  }
  if (refusedFor > 0) return { refused: true, retryAfterSeconds: refusedFor };
  return { refused: false, retryAfterSecondsIfWrong: lockedFor };
}
