import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { authThrottles } from "@/db/schema";
import {
  AUTH_THROTTLE_MAX_DELAY_MS,
  AUTH_THROTTLE_STEP_MS,
  AUTH_THROTTLE_WINDOW_SECONDS,
  type AuthThrottleRule,
} from "./auth-throttle-rules";

export type CheckAuthThrottleOptions = { rules: AuthThrottleRule[]; now?: Date };

/** Either refused for `retryAfterSeconds`, or allowed after waiting `delayMs` (0 when nothing failed lately). */
export type AuthThrottleState = { refused: true; retryAfterSeconds: number } | { refused: false; delayMs: number };

/** Reads the counters of the rules' keys before an attempt: the longest lock wins, else the longest delay. */
export async function checkAuthThrottle(db: Db, options: CheckAuthThrottleOptions): Promise<AuthThrottleState> {
  const now = options.now ?? new Date();
  const rows = await db
    .select()
    .from(authThrottles)
    .where(inArray(authThrottles.key, options.rules.map((rule) => rule.key)));
  let lockedUntil = 0;
  let delayMs = 0;
  for (const row of rows) {
    if (row.lockedUntil && row.lockedUntil > now) lockedUntil = Math.max(lockedUntil, row.lockedUntil.getTime());
    const rule = options.rules.find((r) => r.key === row.key)!;
    const inWindow = now.getTime() - row.windowStartedAt.getTime() < AUTH_THROTTLE_WINDOW_SECONDS * 1000;
    if (inWindow && row.failures > rule.slowAfter) {
      delayMs = Math.max(delayMs, Math.min(AUTH_THROTTLE_MAX_DELAY_MS, (row.failures - rule.slowAfter) * AUTH_THROTTLE_STEP_MS));
    }
  }
  if (lockedUntil > 0) return { refused: true, retryAfterSeconds: Math.ceil((lockedUntil - now.getTime()) / 1000) };
  return { refused: false, delayMs };
}
