import { BlockList, isIP } from "node:net";

/**
 * Where an outbound webhook may not go (server-side request forgery): every address that is not
 * public. Checked on the URL when an endpoint is saved and again on every resolved address at
 * delivery time, just before connecting (lib/webhooks/send-webhook-request.ts).
 */
export type RefusedAddressKind = "loopback" | "private" | "link-local" | "metadata" | "reserved";

const ranges: Array<[RefusedAddressKind, string, number, "ipv4" | "ipv6"]> = [
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["loopback", "::1", 128, "ipv6"],
  ["metadata", "169.254.169.254", 32, "ipv4"],
  ["metadata", "100.100.100.200", 32, "ipv4"],
  ["metadata", "fd00:ec2::254", 128, "ipv6"],
  ["link-local", "169.254.0.0", 16, "ipv4"],
  ["link-local", "fe80::", 10, "ipv6"],
  ["private", "10.0.0.0", 8, "ipv4"],
  ["private", "172.16.0.0", 12, "ipv4"],
  ["private", "192.168.0.0", 16, "ipv4"],
  ["private", "100.64.0.0", 10, "ipv4"],
  ["private", "fc00::", 7, "ipv6"],
  ["reserved", "0.0.0.0", 8, "ipv4"],
  ["reserved", "192.0.0.0", 24, "ipv4"],
  ["reserved", "192.0.2.0", 24, "ipv4"],
  ["reserved", "198.18.0.0", 15, "ipv4"],
  ["reserved", "198.51.100.0", 24, "ipv4"],
  ["reserved", "203.0.113.0", 24, "ipv4"],
  ["reserved", "224.0.0.0", 4, "ipv4"],
  ["reserved", "240.0.0.0", 4, "ipv4"],
  ["reserved", "::", 128, "ipv6"],
  ["reserved", "ff00::", 8, "ipv6"],
  ["reserved", "2001:db8::", 32, "ipv6"],
  ["reserved", "100::", 64, "ipv6"],
];

const lists = new Map<RefusedAddressKind, BlockList>();
for (const [kind, network, prefix, family] of ranges) {
  let list = lists.get(kind);
  if (!list) lists.set(kind, (list = new BlockList()));
  list.addSubnet(network, prefix, family);
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const normalized = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const match = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(normalized);
  if (!match) return null;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/**
 * Why `address` (an IP literal) may not receive a webhook, or null when it is public.
 * `allowLoopback` (WEBHOOKS_ALLOW_LOOPBACK, development and tests only) lets loopback through.
 */
export function refusedAddressKind(address: string, options: { allowLoopback: boolean }): RefusedAddressKind | null {
  const family = isIP(address);
  if (family === 0) return "reserved";
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return refusedAddressKind(v4, options);
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const [kind, list] of lists) {
    if (!list.check(address, type)) continue;
    if (kind === "loopback" && options.allowLoopback) return null;
    return kind;
  }
  return null;
}

/** A URL's host without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}
