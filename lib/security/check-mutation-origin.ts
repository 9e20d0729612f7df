const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type CheckMutationOriginOptions = { method: string; pathname: string; headers: Headers; url: string; appUrl: string };

/**
 * Whether a state-changing request to a page (a server action, or any other non-GET that is not an
 * `/api` or `/v1` route) must be refused: its `Origin` is missing, `null` (a sandboxed frame or a
 * privacy redirect) or another site's. Next itself only compares a server action's Origin with the
 * host when an Origin is present and not `null`, and answers a mismatch with a 500; refusing here
 * makes all three a 403. Browsers send Origin on every POST, with or without JavaScript, so real
 * forms are unaffected. `/api/*` routes carry their own checks (webhooks are signed, bank POSTs
 * check the origin, next-auth has its CSRF token), and `/v1` takes Bearer tokens, not cookies.
 */
export function isUntrustedMutation(options: CheckMutationOriginOptions): boolean {
  if (SAFE_METHODS.has(options.method.toUpperCase())) return false;
  const isAction = options.headers.has("next-action");
  if (!isAction && (options.pathname.startsWith("/api/") || options.pathname.startsWith("/v1/"))) return false;
  const origin = options.headers.get("origin");
  if (origin === null || origin === "null") return true;
  return origin !== new URL(options.appUrl).origin && origin !== new URL(options.url).origin;
}
