/**
 * Delays before each retry of a webhook delivery: exponential (×~3 each time, from 10 s) and capped
 * at 12 h, so the 15 attempts span about three days. Each delay gets "equal jitter" (half fixed,
 * half random) so endpoints that failed together do not all come back at the same second.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  10_000, 30_000, 90_000, 5 * 60_000, 15 * 60_000, 45 * 60_000, 2 * 3600_000, 6 * 3600_000,
  12 * 3600_000, 12 * 3600_000, 12 * 3600_000, 12 * 3600_000, 12 * 3600_000, 12 * 3600_000,
];

/** Total attempts of one delivery (the first plus one per retry delay). */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** An endpoint whose deliveries have failed for this long without a success in between is disabled. */
export const WEBHOOK_DISABLE_AFTER_MS = 3 * 24 * 3600_000;

/** The delay after failed attempt `attempt` (1-based), or null when no attempt is left. */
export function webhookRetryDelayMs(attempt: number, random: () => number = Math.random): number | null {
  const base = WEBHOOK_RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base / 2 + random() * (base / 2));
}
