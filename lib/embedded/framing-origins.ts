/** At most this many origins may frame an organization's embedded signing pages. */
export const MAX_FRAMING_ORIGINS = 10;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export type FramingOriginCheck = { ok: true; origin: string } | { ok: false; reason: string };

/**
 * One origin allowed to frame embedded signing, exactly `scheme://host[:port]`: https, or http on
 * loopback (127.0.0.1, localhost, [::1]) when `allowLoopbackHttp` (outside production). No path
 * (not even `/`), query, fragment, credentials or wildcard. Returned in its canonical form
 * (lower-case host, default port dropped) — the form browsers send as a frame's ancestor origin.
 */
export function checkFramingOrigin(value: string, options: { allowLoopbackHttp: boolean }): FramingOriginCheck {
  const raw = value.trim();
  if (raw === "" || raw.length > 200) return { ok: false, reason: "must be an origin such as https://lender.example" };
  if (raw.includes("*")) return { ok: false, reason: "wildcards are not allowed: list each origin" };
  if (!/^[a-z]+:\/\/[^/?#@\s]+$/i.test(raw)) return { ok: false, reason: "must be scheme://host[:port], with no path, query, fragment or user" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "must be an origin such as https://lender.example" };
  }
  if (url.protocol === "http:") {
    if (!LOOPBACK_HOSTS.has(url.hostname)) return { ok: false, reason: "must use https (http only for 127.0.0.1 or localhost)" };
    if (!options.allowLoopbackHttp) return { ok: false, reason: "http is allowed only outside production" };
  } else if (url.protocol !== "https:") {
    return { ok: false, reason: "must use https" };
  }
  if (!url.hostname || (!url.hostname.includes(".") && !LOOPBACK_HOSTS.has(url.hostname))) return { ok: false, reason: "must name a full host" };
  return { ok: true, origin: url.origin };
}

/** Several origins: each checked, duplicates removed, at most `MAX_FRAMING_ORIGINS`; the first problem as `origins[i]: reason`. */
export function checkFramingOrigins(values: readonly string[], options: { allowLoopbackHttp: boolean }): { ok: true; origins: string[] } | { ok: false; reason: string } {
  const origins: string[] = [];
  for (const [i, value] of values.entries()) {
    const checked = checkFramingOrigin(value, options);
    if (!checked.ok) return { ok: false, reason: `origins[${i}]: ${checked.reason}` };
    if (!origins.includes(checked.origin)) origins.push(checked.origin);
  }
  if (origins.length > MAX_FRAMING_ORIGINS) return { ok: false, reason: `origins: at most ${MAX_FRAMING_ORIGINS}` };
  return { ok: true, origins };
}

/**
 * The origin of the page framing this request, as far as the browser says: a frame's navigation
 * (`Sec-Fetch-Dest: iframe`) with a `Referer`, which browsers send by default as the parent page's
 * origin at least (`strict-origin-when-cross-origin`). `null` when the request is not a frame's or the
 * parent sends no referrer: then nothing can be told, and `frame-ancestors` alone keeps the page out
 * of a stranger's frame.
 */
export function framingParentOrigin(headers: Headers): string | null {
  if (headers.get("sec-fetch-dest") !== "iframe") return null;
  const referer = headers.get("referer");
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}
