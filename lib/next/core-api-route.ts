import { getApiApp } from "@/lib/api/app";
import { prepareDatabase } from "@/lib/boot";

/**
 * Hands a Next request to the core-api handler under the path it has on the standalone server:
 * `/api/v1/x` (where the `/v1/:path*` rewrite lands) becomes `/v1/x`, `/api/health` becomes `/health`.
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
