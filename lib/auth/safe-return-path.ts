const MAX_RETURN_PATH_LENGTH = 2048;
const PROBE_ORIGIN = "http://return-path.invalid";

/**
 * The path to go to after sign-in, from an untrusted `callbackUrl`: a same-origin path or `/`.
 * The value is read the way a browser's URL parser would read it — tabs, CR and LF removed anywhere,
 * backslashes taken as slashes — so `/\t/evil.example` and `/\evil.example` (both `//evil.example`
 * to a browser) are refused. What is kept is re-serialised by the URL parser, so the result is
 * ASCII and safe in a `Location` header; anything odd (controls, absolute or scheme URLs, overly
 * long values, arrays' later items) falls back to `/` rather than an error.
 */
export function safeReturnPath(value: unknown): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_RETURN_PATH_LENGTH) return "/";
  const path = raw.replace(/[\t\n\r]/g, "").replace(/\\/g, "/");
  if (!path.startsWith("/") || path.startsWith("//")) return "/";
  // Other C0 controls, DEL and spaces at the ends are trimmed or kept by browsers inconsistently: refuse them.
  if (/[\u0000-\u001f\u007f]/.test(path) || path !== path.trim()) return "/";
  let url: URL;
  try {
    url = new URL(path, PROBE_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== PROBE_ORIGIN) return "/";
  const normalised = `${url.pathname}${url.search}${url.hash}`;
  return normalised.startsWith("//") ? "/" : normalised;
}
