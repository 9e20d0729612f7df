import { getApiApp } from "@/lib/api/app";
import { prepareDatabase } from "@/lib/boot";

/**
 * `/v1` in Next: the route handlers `app/v1/[[...path]]` and `app/api/v1/[[...path]]` hand the request
 * to the core-api fetch handler as it came (the core-api reads `/api/v1/x` as `/v1/x`), with no
 * rewrite in front and no copy of the request.
 */
export async function serveCoreApi(request: Request): Promise<Response> {
  await prepareDatabase();
  return getApiApp().fetch(request);
}

/**
 * Hands a Next request to the core-api handler under another path than its own: `/api/health`
 * (where the `/health` rewrite lands) becomes `/health`.
 */
export async function forwardToCoreApi(request: Request, corePath: (pathname: string) => string): Promise<Response> {
  await prepareDatabase();
  const url = new URL(request.url);
  url.pathname = corePath(url.pathname);
  const init: RequestInit & { duplex?: "half" } = {
    method: request.method,
    headers: request.headers,
    body: request.method === "GET" || request.method === "HEAD" ? undefined : request.body,
    duplex: "half",
    signal: request.signal,
  };
  return getApiApp().fetch(new Request(url, init));
}
