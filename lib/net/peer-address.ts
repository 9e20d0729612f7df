import { randomBytes, timingSafeEqual } from "node:crypto";
import { Server as HttpServer, type IncomingMessage } from "node:http";
import { Server as HttpsServer } from "node:https";

/**
 * The socket peer's address, carried from Node's HTTP server to Next route handlers and server
 * actions, which never see the socket. Next fills X-Forwarded-For from the socket only when the
 * client sent none, so under `next start` that header cannot tell a proxy's entry from a forgery.
 *
 * `installPeerAddressHeader()` (from instrumentation.ts, before the first request) wraps the servers'
 * `request` event and overwrites one header with "<process token> <peer address>". The token is
 * random per process and never leaves it, so a client-sent copy of the header is not believed; where
 * the hook is not installed (a serverless host), no peer is known and TRUSTED_PROXY_HOPS decides.
 */
export const PEER_ADDRESS_HEADER = "x-csig-peer";
const TOKEN = Symbol.for("csig.peer-address-token");

type WithToken = typeof globalThis & { [TOKEN]?: string };

export function installPeerAddressHeader(): void {
  const scope = globalThis as WithToken;
  if (scope[TOKEN]) return;
  const token = randomBytes(18).toString("base64url");
  scope[TOKEN] = token;
  for (const prototype of [HttpServer.prototype, HttpsServer.prototype]) {
    const emit = prototype.emit;
    prototype.emit = function emitWithPeer(this: HttpServer, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request") {
        const request = args[0] as IncomingMessage;
        request.headers[PEER_ADDRESS_HEADER] = `${token} ${request.socket?.remoteAddress ?? ""}`;
      }
      return Reflect.apply(emit, this, [event, ...args]) as boolean;
    } as typeof emit;
  }
}

/** The peer address written by the hook in this process, or null (no hook, or a forged header). */
export function peerAddressFromHeaders(headers: { get(name: string): string | null }): string | null {
  const token = (globalThis as WithToken)[TOKEN];
  const value = headers.get(PEER_ADDRESS_HEADER);
  if (!token || !value) return null;
  const space = value.indexOf(" ");
  if (space < 0) return null;
  const given = Buffer.from(value.slice(0, space));
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return value.slice(space + 1) || null;
}
