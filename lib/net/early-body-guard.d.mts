/** A request path (query excluded) and the largest body its route accepts. */
export type EarlyBodyCap = { path: RegExp; maxBytes: number };

/** Wraps the HTTP(S) servers' `emit` once per process; false when it was already installed. */
export function installEarlyBodyGuard(caps: EarlyBodyCap[]): boolean;

/** The cap for a request with a body, if its path has one. */
export function earlyBodyCapFor(caps: EarlyBodyCap[], method: string | undefined, url: string | undefined): number | undefined;
