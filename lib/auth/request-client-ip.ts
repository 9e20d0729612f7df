import { clientIpFromRequest } from "@/lib/net/client-ip";

/**
 * The client address used to throttle failed sign-ins and API-key exchanges from a route handler
 * or a server action: the evidence IP rule (socket peer, or TRUSTED_PROXY_HOPS entries of
 * X-Forwarded-For; lib/net/client-ip.ts), so a client cannot dodge its counter by forging the header.
 */
export function requestClientIp(headers: Headers): string {
  return clientIpFromRequest(headers) ?? "unknown";
}
