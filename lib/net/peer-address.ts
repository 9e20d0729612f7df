import { timingSafeEqual } from "node:crypto";
import { PEER_ADDRESS_HEADER, PEER_TOKEN } from "./peer-address-stamp.mjs";

/**
 * The socket peer's address, carried from Node's HTTP server to Next route handlers and server
 * actions, which never see the socket. Next fills X-Forwarded-For from the socket only when the
 * client sent none, so under `next start` that header cannot tell a proxy's entry from a forgery.
 *
 * The web server `npm start` runs (server.mjs) stamps every request with `stampPeerAddress`
 * (lib/net/peer-address-stamp.mjs): one header holding "<process token> <peer address>". The token is
 * random per process and never leaves it, so a client-sent copy of the header is not believed; where
 * no stamp is made (a serverless host, plain `next start`), no peer is known and TRUSTED_PROXY_HOPS
 * decides.
 */
export { PEER_ADDRESS_HEADER };

type WithToken = typeof globalThis & { [PEER_TOKEN]?: string };

/** The peer address stamped by this process's server, or null (no stamp, or a forged header). */
export function peerAddressFromHeaders(headers: { get(name: string): string | null }): string | null {
  const token = (globalThis as WithToken)[PEER_TOKEN];
  const value = headers.get(PEER_ADDRESS_HEADER);
  if (!token || !value) return null;
  const space = value.indexOf(" ");
  if (space < 0) return null;
  const given = Buffer.from(value.slice(0, space));
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return value.slice(space + 1) || null;
}
