import { Server as HttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Server as HttpsServer } from "node:https";

/** A request path (query excluded) and the largest body its route accepts. */
export type EarlyBodyCap = { path: RegExp; maxBytes: number };

/** After a 413 the connection is closed; the client gets this long to read the answer before it is cut. */
const CLOSE_GRACE_MS = 1000;
const INSTALLED = Symbol.for("csig.early-body-guard");

type RequestState = { received: number; cut: boolean };

/**
 * Body caps enforced by Node's HTTP server itself, before Next sees the request. Next's proxy
 * (proxy.ts) buffers a request's body before the route handler runs, so a route's own streaming cap
 * (`readCappedBody`) only answered after the client had sent everything (a 48 MB chunked body), and a
 * declared `Content-Length: 209715200` got no answer at all. Installed from instrumentation.ts under
 * `next start`:
 * - a path in `caps` whose declared Content-Length is over its cap gets 413 at once, without Next;
 * - a body streaming past its cap is ended there (the route sees more than its cap and answers 413),
 *   and the socket is no longer read;
 * - any 413 (from here, a route or `/v1`) carries `Connection: close`, and the connection is closed
 *   after the answer instead of draining the rest of the body.
 */
export function installEarlyBodyGuard(caps: EarlyBodyCap[]): void {
  const scope = globalThis as typeof globalThis & { [INSTALLED]?: boolean };
  if (scope[INSTALLED]) return;
  scope[INSTALLED] = true;
  for (const prototype of [HttpServer.prototype, HttpsServer.prototype]) {
    const emit = prototype.emit;
    prototype.emit = function emitWithBodyGuard(this: HttpServer, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request" || event === "checkContinue") {
        const [request, response] = args as [IncomingMessage, ServerResponse];
        if (!guardRequest(request, response, caps)) return true;
      }
      return Reflect.apply(emit, this, [event, ...args]) as boolean;
    } as typeof emit;
  }
}

/** The cap for a request with a body, if its path has one. */
export function earlyBodyCapFor(caps: EarlyBodyCap[], method: string | undefined, url: string | undefined): number | undefined {
  if (method === "GET" || method === "HEAD") return undefined;
  const path = (url ?? "/").split("?")[0]!;
  return caps.find((cap) => cap.path.test(path))?.maxBytes;
}

/** Returns false when the request was answered here (Next never sees it). */
function guardRequest(request: IncomingMessage, response: ServerResponse, caps: EarlyBodyCap[]): boolean {
  const state: RequestState = { received: 0, cut: false };
  const cap = earlyBodyCapFor(caps, request.method, request.url);
  const push = request.push;
  const cut = () => {
    if (state.cut) return;
    state.cut = true;
    // Ends the body where it is; later chunks are dropped and the socket is no longer read.
    Reflect.apply(push, request, [null]);
  };
  request.push = function pushWithCap(this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (state.cut) return false;
    if (chunk === null) return Reflect.apply(push, this, [chunk, encoding]) as boolean;
    state.received += (chunk as { length: number }).length;
    const more = Reflect.apply(push, this, [chunk, encoding]) as boolean;
    if (cap !== undefined && state.received > cap) {
      cut();
      return false;
    }
    return more;
  };

  const writeHead = response.writeHead;
  response.writeHead = function writeHeadClosingAfter413(this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    if (statusCode === 413 && !this.headersSent) {
      this.setHeader("Connection", "close");
      cut();
      this.once("finish", () => {
        if (!request.complete) setTimeout(() => request.socket?.destroy(), CLOSE_GRACE_MS).unref();
      });
    }
    return Reflect.apply(writeHead, this, [statusCode, ...rest]) as ServerResponse;
  } as typeof writeHead;

  const declared = Number(request.headers["content-length"] ?? 0);
  if (cap !== undefined && declared > cap) {
    const body = JSON.stringify({ error: `Request body exceeds ${cap} bytes.` });
    response.writeHead(413, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
    response.end(body);
    return false;
  }
  return true;
}
