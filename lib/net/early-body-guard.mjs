// Plain JavaScript (types in early-body-guard.d.mts): the web server `npm start` runs (server.mjs)
// calls it for every request before handing the request to Next.

/** After a 413 the connection is closed; the client gets this long to read the answer before it is cut. */
const CLOSE_GRACE_MS = 1000;

/**
 * The cap for a request with a body, if its path has one.
 * @param {import("./early-body-guard.d.mts").EarlyBodyCap[]} caps
 * @param {string | undefined} method
 * @param {string | undefined} url
 * @returns {number | undefined}
 */
export function earlyBodyCapFor(caps, method, url) {
  if (method === "GET" || method === "HEAD") return undefined;
  const path = (url ?? "/").split("?")[0];
  return caps.find((cap) => cap.path.test(path))?.maxBytes;
}

/**
 * Body caps enforced by our HTTP server itself, before Next sees the request. Next's proxy
 * (proxy.ts) buffers a request's body before the route handler runs, so a route's own streaming cap
 * (`readCappedBody`) only answered after the client had sent everything (a 48 MB chunked body), and a
 * declared `Content-Length: 209715200` got no answer at all.
 * - a path in `caps` whose declared Content-Length is over its cap gets 413 at once, without Next;
 * - a body streaming past its cap is ended there (the route sees more than its cap and answers 413),
 *   and the socket is no longer read;
 * - any 413 (from here, a route or `/v1`), and any answer to a request whose body was cut, carries
 *   `Connection: close`, and the connection is closed after the answer instead of draining the rest.
 *
 * It works on the one request and response it is given (server.mjs calls it in its request
 * listener); nothing global is changed. Returns false when the request was answered here (Next must
 * not see it).
 *
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 * @param {import("./early-body-guard.d.mts").EarlyBodyCap[]} caps
 * @returns {boolean}
 */
export function guardRequest(request, response, caps) {
  let received = 0;
  let wasCut = false;
  // Held from the start: `request.socket` does not stay set. A route that stops reading the body
  // early (readCappedBody cancels its reader past the cap) makes Node's stream destroyer set
  // `request.socket = null` (so that destroying the request leaves the connection to the answer).
  const socket = request.socket;
  const cap = earlyBodyCapFor(caps, request.method, request.url);
  const push = request.push;
  const cut = () => {
    if (wasCut) return;
    wasCut = true;
    if (!response.headersSent) response.setHeader("Connection", "close");
    // An IncomingMessage destroyed before its whole message arrived destroys its socket, and Node
    // destroys it by itself right after its 'end' (autoDestroy): ending the body here would cut the
    // connection before Next (which answers after buffering the body) could send its 413. The
    // socket is closed after the answer instead (below, and by Node for `Connection: close`).
    // A reader cancelled after the cut destroys the request with an AbortError: that must not cut
    // the connection either (the answer closes it).
    request._destroy = function destroyKeepingSocket(_error, callback) {
      callback(null);
    };
    // Ends the body where it is; later chunks are dropped and the socket is no longer read.
    Reflect.apply(push, request, [null]);
  };
  request.push = function pushWithCap(chunk, encoding) {
    if (wasCut) return false;
    if (chunk === null) return Reflect.apply(push, this, [chunk, encoding]);
    received += chunk.length;
    const more = Reflect.apply(push, this, [chunk, encoding]);
    if (cap !== undefined && received > cap) {
      cut();
      return false;
    }
    return more;
  };

  const writeHead = response.writeHead;
  response.writeHead = function writeHeadClosingAfter413(statusCode, ...rest) {
    if ((statusCode === 413 || wasCut) && !this.headersSent) {
      this.setHeader("Connection", "close");
      cut();
      // Node closes a `Connection: close` socket as soon as the answer is written (destroySoon:
      // end, then destroy once the end is flushed); with the client still sending, the unread bytes
      // make that close a reset, which reaches a client busy writing before it has read the 413
      // (its next write fails with EPIPE and the 413 is never read): no answer at all, as under
      // load. Half-close instead (the client reads the 413 and the end of the stream), and cut the
      // connection after the grace period.
      if (socket) {
        socket.destroySoon = function halfCloseThenWait() {
          if (this.writable) this.end();
        };
        this.once("finish", () => {
          setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
        });
      }
    }
    return Reflect.apply(writeHead, this, [statusCode, ...rest]);
  };

  const declared = Number(request.headers["content-length"] ?? 0);
  if (cap !== undefined && declared > cap) {
    const body = JSON.stringify({ error: `Request body exceeds ${cap} bytes.` });
    response.writeHead(413, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
    response.end(body);
    return false;
  }
  return true;
}
