/**
 * The client address used to throttle failed sign-ins and API-key exchanges from a route handler
 * or a server action, which see headers but no socket. Under `next start` Next.js writes the socket
 * address into X-Forwarded-For when the client sent none, so the right-most entry is the nearest hop.
 * The single place to teach the trusted-proxy rule (`TRUSTED_PROXY_HOPS`, issue 14 item 4).
 */
export function requestClientIp(headers: Headers): string {
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  return (hops.at(-1) ?? "unknown").slice(0, 64);
}
