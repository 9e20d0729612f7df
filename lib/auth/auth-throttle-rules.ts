/** A counter of failed attempts: slowed after `slowAfter` failures in the window, refused at `lockAfter`. */
export type AuthThrottleRule = { key: string; slowAfter: number; lockAfter: number };

/** Failures older than this no longer count. */
export const AUTH_THROTTLE_WINDOW_SECONDS = 15 * 60;
/** How long a key stays refused once it reached its limit. */
export const AUTH_THROTTLE_LOCK_SECONDS = 15 * 60;
/** Added delay per failure beyond `slowAfter`, up to the cap. */
export const AUTH_THROTTLE_STEP_MS = 500;
export const AUTH_THROTTLE_MAX_DELAY_MS = 3000;

/**
 * The rules for a password sign-in: the account (whoever tries it) and the client (whatever
 * account it tries). A client gets more room than an account: people behind one NAT share it.
 */
export function passwordSignInRules(options: { email: string; clientIp: string }): AuthThrottleRule[] {
  return [
    { key: `account:${options.email.trim().toLowerCase().slice(0, 320)}`, slowAfter: 3, lockAfter: 10 },
    { key: `client:${options.clientIp}`, slowAfter: 10, lockAfter: 50 },
  ];
}

/** The rule for `POST /api/auth/token`: failed API keys per client. */
export function apiKeyExchangeRules(options: { clientIp: string }): AuthThrottleRule[] {
  return [{ key: `api-key-client:${options.clientIp}`, slowAfter: 5, lockAfter: 20 }];
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts, try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
