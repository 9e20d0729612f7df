import type { IncomingMessage } from "node:http";

export const PEER_ADDRESS_HEADER: "x-csig-peer";
export const PEER_TOKEN: unique symbol;
/** Overwrites the request's peer header with this process's token and the socket's address. */
export function stampPeerAddress(request: IncomingMessage): void;
