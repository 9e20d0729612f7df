import { getEnv } from "@/lib/env";
import { peerAddressFromHeaders } from "./peer-address";
import { resolveClientIp } from "./resolve-client-ip";

/**
 * The evidence IP of a request (docs/security.md "Client addresses"): the socket peer
 * when the server knows it (the standalone core-api passes it, Next's hook writes it), unless
 * TRUSTED_PROXY_HOPS says how many X-Forwarded-For entries to trust.
 */
export function clientIpFromRequest(headers: { get(name: string): string | null }, socketPeer?: string | null): string | null {
  return resolveClientIp({
    peer: socketPeer ?? peerAddressFromHeaders(headers),
    forwardedFor: headers.get("x-forwarded-for"),
    trustedHops: getEnv().TRUSTED_PROXY_HOPS,
  });
}
