// Plain JavaScript (types in peer-address-stamp.d.mts): the web server (server.mjs) stamps each
// request before Next sees it; lib/net/peer-address.ts reads the stamp inside route handlers.
import { randomBytes } from "node:crypto";

/** The header that carries "<process token> <socket peer address>" from the server to Next's handlers. */
export const PEER_ADDRESS_HEADER = "x-csig-peer";
/** Where this process keeps its token: random per process, never sent anywhere. */
export const PEER_TOKEN = Symbol.for("csig.peer-address-token");

/**
 * Overwrites the peer header of a request with this process's token and the socket's address, so a
 * copy the client sent is replaced (and, without the token, never believed).
 * @param {import("node:http").IncomingMessage} request
 */
export function stampPeerAddress(request) {
  const scope = /** @type {Record<symbol, string | undefined>} */ (/** @type {unknown} */ (globalThis));
  scope[PEER_TOKEN] ??= randomBytes(18).toString("base64url");
  request.headers[PEER_ADDRESS_HEADER] = `${scope[PEER_TOKEN]} ${request.socket?.remoteAddress ?? ""}`;
}
