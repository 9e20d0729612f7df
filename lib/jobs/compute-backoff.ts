export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 10 * 60_000;

/**
 * Delay before the next attempt after `attempt` (1-based) failed: 2 s · 2^(attempt-1), capped at
 * 10 min, with "equal jitter" (half fixed, half random) so failed jobs don't retry in lockstep
 * while the delay still grows with every attempt.
 */
export function computeBackoffMs(attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  const half = exponential / 2;
  return Math.round(half + random() * half);
}
