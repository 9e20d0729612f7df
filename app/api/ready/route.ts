// GET /ready – readiness probe: a database round trip.
import { forwardToCoreApi } from "@/lib/next/core-api-route";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => forwardToCoreApi(request, () => "/ready");
