import type { IncomingMessage, ServerResponse } from "node:http";

/** A request path (query excluded) and the largest body its route accepts. */
export type EarlyBodyCap = { path: RegExp; maxBytes: number };

/** Applies the caps to one request before Next sees it; false when it was answered here (413). */
export function guardRequest(request: IncomingMessage, response: ServerResponse, caps: EarlyBodyCap[]): boolean;

/** The cap for a request with a body, if its path has one. */
export function earlyBodyCapFor(caps: EarlyBodyCap[], method: string | undefined, url: string | undefined): number | undefined;
