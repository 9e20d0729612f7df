import { getEnv } from "@/lib/env";
import { Forbidden } from "@/lib/errors";

/**
 * CSRF guard for cookie-authenticated POSTs: a browser request from another site is refused (403).
 * Browsers send `Origin` on every POST; it must be APP_URL's origin (or the request's own, for a
 * deployment reached under another host name). Without `Origin`, `Sec-Fetch-Site` is checked when
 * present. A request with neither is not from a browser and gains nothing from the cookie's ambient
 * authority. The session cookie is also SameSite=Lax, so this is the second line of defence.
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const allowed = new Set([new URL(getEnv().APP_URL).origin, new URL(request.url).origin]);
    if (!allowed.has(origin)) throw Forbidden("Cross-site request refused.");
    return;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") throw Forbidden("Cross-site request refused.");
}
