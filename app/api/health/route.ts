// GET /health – liveness probe of the core-api handler.
import { forwardToCoreApi } from "@/lib/next/core-api-route";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => forwardToCoreApi(request, () => "/health");
