// The web server `npm start` runs: Next's documented custom server (next({ dev: false }) and its
// request handler) behind a plain Node HTTP server of our own, which does two things for every
// request before Next sees it:
// - the body caps of the routes behind proxy.ts (lib/net/early-body-guard.mjs): a declared length
//   over the cap is refused at once, a streamed body is cut at the cap, and the 413 is readable;
// - the socket peer's address, stamped for the evidence IP rule (lib/net/peer-address-stamp.mjs).
// Nothing of Node's or Next's is patched. `/v1` is Next's route handler like every other route; the
// standalone core-api (`npm run start:api`) is the fast path for API-heavy deployments.
//
// Usage: node server.mjs [--port 3000] [--hostname 127.0.0.1] (or PORT and HOSTNAME); NODE_ENV
// defaults to production, as under `next start`.
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { guardRequest } from "./lib/net/early-body-guard.mjs";
import { stampPeerAddress } from "./lib/net/peer-address-stamp.mjs";
import { EARLY_BODY_CAPS } from "./lib/next/early-body-caps.mjs";

const { values } = parseArgs({
  options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
  strict: true,
});
// eslint-disable-next-line no-restricted-properties -- a plain Node entry point, before lib/env.ts can load
const env = process.env;
const port = Number(values.port ?? env.PORT ?? 3000);
const hostname = values.hostname ?? env.HOSTNAME ?? undefined;

// As `next start` does: a production server runs React's and Next's production builds, which they pick
// by NODE_ENV when they load (so before Next is imported).
env.NODE_ENV ??= "production";
const { default: next } = await import("next");
const app = next({ dev: false, dir: import.meta.dirname, hostname: hostname ?? "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();

/** @type {(request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => void} */
function serve(request, response) {
  stampPeerAddress(request);
  void handle(request, response);
}

const server = createServer((request, response) => {
  if (guardRequest(request, response, EARLY_BODY_CAPS)) serve(request, response);
});
// `Expect: 100-continue`: the caps answer before the client is told to send its body.
server.on("checkContinue", (request, response) => {
  if (!guardRequest(request, response, EARLY_BODY_CAPS)) return;
  response.writeContinue();
  serve(request, response);
});
server.listen(port, hostname, () => {
  console.log(`web server ready on http://${hostname ?? "localhost"}:${port}`);
});
