import { isIP } from "node:net";

/**
 * The client's address for evidence (e-signatures, audit trail, throttling), from what the server
 * can trust: with no trusted proxy (`trustedHops` 0) the socket peer, whatever X-Forwarded-For
 * says; with N proxies that each append the address they saw, the Nth address from the right of
 * X-Forwarded-For (addresses left of it were written by the client and prove nothing). A header with
 * fewer entries than N, or an entry that is not an IP address, yields the furthest valid entry that
 * a trusted proxy wrote, else the peer.
 */
export function resolveClientIp(options: { peer: string | null | undefined; forwardedFor: string | null | undefined; trustedHops: number }): string | null {
  const peer = normalizeIp(options.peer);
  if (options.trustedHops <= 0 || !options.forwardedFor) return peer;
  const chain = options.forwardedFor.split(",").map((entry) => entry.trim()).filter(Boolean);
  const trusted = chain.slice(Math.max(0, chain.length - options.trustedHops));
  // `trusted[0]` is the address the outermost trusted proxy saw: the client, as far as we can know.
  for (const entry of trusted) {
    const ip = normalizeIp(entry);
    if (ip) return ip;
  }
  return peer;
}

/** A bare IP address (IPv4-mapped IPv6 shown as IPv4), or null for anything else. */
export function normalizeIp(value: string | null | undefined): string | null {
  if (!value) return null;
  let ip = value.trim();
  if (ip.startsWith("[") && ip.includes("]")) ip = ip.slice(1, ip.indexOf("]"));
  if (ip.toLowerCase().startsWith("::ffff:") && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  return isIP(ip) ? ip : null;
}
