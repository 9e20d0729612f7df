import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { errorDetails } from "@/lib/errors";
import { refusedAddressKind, urlHost } from "./webhook-address";

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 1_024;

export type WebhookResponse = {
  statusCode: number | null;
  /** Why no answer was had (refused address, timeout, connection error); null when one was. */
  error: string | null;
  /** The first 1 KB of the answer's body. */
  body: string | null;
  durationMs: number;
};

class RefusedAddress extends Error {
  constructor(kind: string) {
    super(`the host resolves to a ${kind} address`);
    this.name = "RefusedAddress";
  }
}

/**
 * A DNS lookup that refuses the connection when any address the name resolves to is not public, and
 * hands the socket the addresses it checked (so a second resolution cannot swap in another).
 */
function safeLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 4);
      for (const { address } of addresses) {
        const kind = refusedAddressKind(address, { allowLoopback });
        if (kind) return callback(new RefusedAddress(kind), "", 4);
      }
      if (addresses.length === 0) return callback(new Error(`no address for ${hostname}`), "", 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * POSTs one signed webhook. The host is resolved here, at delivery time, and refused unless every
 * address is public (loopback only with `allowLoopback`); redirects are not followed (a 3xx is an
 * answer like any other non-2xx); the whole exchange is bounded by `timeoutMs`.
 */
export async function sendWebhookRequest(options: {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowLoopback: boolean;
  /**
   * The operator configured this destination in the environment (the records vault): any address is
   * expected, a private one included, so none is refused. Never for a URL a user saved.
   */
  anyAddress?: boolean;
  timeoutMs?: number;
}): Promise<WebhookResponse> {
  const startedAt = performance.now();
  const done = (result: Omit<WebhookResponse, "durationMs">): WebhookResponse => ({ ...result, durationMs: Math.round(performance.now() - startedAt) });
  const url = new URL(options.url);
  const host = urlHost(url);
  if (isIP(host) && !options.anyAddress) {
    const kind = refusedAddressKind(host, { allowLoopback: options.allowLoopback });
    if (kind) return done({ statusCode: null, error: `Refused: the URL is a ${kind} address`, body: null });
  }
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<WebhookResponse>((resolve) => {
    let settled = false;
    const finish = (result: Omit<WebhookResponse, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(result));
    };
    const req = request(url, {
      method: "POST",
      headers: { ...options.headers, "Content-Length": String(Buffer.byteLength(options.body)) },
      ...(options.anyAddress ? {} : { lookup: safeLookup(options.allowLoopback) }),
      agent: false,
    });
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `Timeout: no answer within ${(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000} s`, body: null });
      req.destroy();
    }, options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    req.on("error", (error) => {
      const { name, message } = errorDetails(error);
      finish({ statusCode: null, error: (name === "RefusedAddress" ? `Refused: ${message}` : `${name}: ${message}`).slice(0, 1_000), body: null });
    });
    req.on("response", (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const end = () => {
        finish({ statusCode: res.statusCode ?? null, error: null, body: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8") });
        res.destroy();
      };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_EXCERPT_BYTES) end();
      });
      res.on("end", end);
      res.on("error", end);
    });
    req.end(options.body);
  });
}
