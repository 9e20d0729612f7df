// /v1/* – every versioned API operation, served by the core-api fetch handler.
import { forwardToCoreApi } from "@/lib/next/core-api-route";

export const dynamic = "force-dynamic";

const handler = (request: Request) => forwardToCoreApi(request, (p) => p.replace(/^\/api\/v1(?=\/|$)/, "/v1"));

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as HEAD, handler as OPTIONS };
