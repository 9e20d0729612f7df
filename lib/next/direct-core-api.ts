import { Server as HttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Server as HttpsServer } from "node:https";
import { getRequestListener } from "@hono/node-server";
import { getApiApp } from "@/lib/api/app";
import { getEnv } from "@/lib/env";

/**
 * `/v1` straight from the Node server under `next start`, without Next's router.
 *
 * Through Next, every `/v1` request took the rewrite to `/api/v1/…`, the App Router's route matching
 * and the route handler's Request/Response wrapping before reaching the core-api's fetch handler —
 * work that made the mounted API slower than Next's own `/health`. `installDirectCoreApi()` (from
 * instrumentation.ts, once the database is ready) wraps the HTTP servers' `request` event: a request
 * whose path is `/v1` or `/api/v1` goes to the core-api through `@hono/node-server`, exactly as on
 * the standalone server (the socket peer is the evidence address, TRUSTED_PROXY_HOPS applies the
 * same way); everything else goes on to Next untouched.
 *
 * Installed only in a `next start` server (or the standalone output's server.js), which Next names
 * "next-server (v…)"; not under `next dev` (the route handler keeps hot reloading), nor with
 * V1_THROUGH_NEXT_ROUTER=1, nor on a serverless host: there the route handler in
 * `app/api/v1/[[...path]]` serves `/v1` as before.
 */
const INSTALLED = Symbol.for("csig.direct-core-api");

type WithFlag = typeof globalThis & { [INSTALLED]?: boolean };

/** `/v1…` and `/api/v1…` (the route handler's path); the latter is served under its `/v1` name. */
const DIRECT_PATH = /^\/(?:api\/)?v1(?=[/?]|$)/;

export function directCorePath(url: string | undefined): string | null {
  if (url === undefined || !DIRECT_PATH.test(url)) return null;
  return url.startsWith("/api/") ? url.slice("/api".length) : url;
}

export function installDirectCoreApi(): boolean {
  const scope = globalThis as WithFlag;
  if (scope[INSTALLED]) return true;
  const env = getEnv();
  // `next start` (and the standalone output's server.js) names the process "next-server (v…)".
  if (env.NODE_ENV !== "production" || env.V1_THROUGH_NEXT_ROUTER || !process.title.startsWith("next-server")) return false;
  scope[INSTALLED] = true;
  const app = getApiApp();
  // After a 413 the rest of the refused body is never read: the connection closes instead of being
  // reused with unread bytes in it. Next's own code shares this process: leave the global Request and
  // Response alone.
  const listener = getRequestListener(
    async (request, bindings) => {
      const response = await app.fetch(request, bindings);
      if (response.status !== 413) return response;
      const headers = new Headers(response.headers);
      headers.set("connection", "close");
      return new Response(response.body, { status: response.status, headers });
    },
    { overrideGlobalObjects: false },
  );
  for (const prototype of [HttpServer.prototype, HttpsServer.prototype]) {
    const emit = prototype.emit;
    prototype.emit = function emitWithDirectApi(this: HttpServer, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request") {
        const request = args[0] as IncomingMessage;
        const path = directCorePath(request.url);
        if (path !== null) {
          request.url = path;
          void listener(request, args[1] as ServerResponse);
          return true;
        }
      }
      return Reflect.apply(emit, this, [event, ...args]) as boolean;
    } as typeof emit;
  }
  return true;
}
