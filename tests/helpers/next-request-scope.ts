import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";

// Next's server sets this global before loading its request storages; so does this helper.
(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
const require = createRequire(import.meta.url);
const { workAsyncStorage } = require("next/dist/server/app-render/work-async-storage.external") as {
  workAsyncStorage: { run<T>(store: unknown, fn: () => T): T };
};
const { workUnitAsyncStorage } = require("next/dist/server/app-render/work-unit-async-storage.external") as {
  workUnitAsyncStorage: { run<T>(store: unknown, fn: () => T): T };
};
const { createRequestStoreForAPI } = require("next/dist/server/async-storage/request-store") as {
  createRequestStoreForAPI: (req: { headers: Headers }, url: { pathname: string; search: string }, ...rest: unknown[]) => unknown;
};

/**
 * Calls a route handler inside the request scope Next gives it in production, so `cookies()` and
 * `headers()` (and everything built on them: next-auth's `getServerSession`, Clerk's `auth()`) read
 * this request's headers. Next's own route module does the same with these two async storages.
 */
export function inNextRequestScope<T>(request: Request, handler: () => Promise<T>): Promise<T> {
  const url = new URL(request.url);
  const workStore = { route: url.pathname, page: url.pathname, forceStatic: false, dynamicShouldError: false, isStaticGeneration: false };
  const requestStore = createRequestStoreForAPI(
    { headers: request.headers },
    { pathname: url.pathname, search: url.search },
    { tags: [], expirationsByCacheKind: new Map() },
    undefined,
    { previewModeId: "", previewModeEncryptionKey: "", previewModeSigningKey: "" },
  );
  return workAsyncStorage.run(workStore, () => workUnitAsyncStorage.run(requestStore, handler));
}

/** A route handler that runs in its own request scope, as `next start` would call it. */
export function inRequestScope(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return (request) => inNextRequestScope(request, () => handler(request));
}

/**
 * Calls `fn` the way `next build` prerenders a page without `cacheComponents`: a static-generation
 * scope in which any request API (`connection()`, `cookies()`, `headers()`) throws to mark the page dynamic.
 */
export function inNextPrerender<T>(route: string, fn: () => Promise<T>): Promise<T> {
  const workStore = { route, page: route, forceStatic: false, dynamicShouldError: false, isStaticGeneration: true };
  const prerenderStore = { type: "prerender-legacy", phase: "render", revalidate: Infinity, implicitTags: { tags: [] } };
  return workAsyncStorage.run(workStore, () => workUnitAsyncStorage.run(prerenderStore, fn));
}
