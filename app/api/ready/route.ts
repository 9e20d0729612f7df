// GET /ready – readiness probe: a database round trip.
import { forwardToCoreApi } from "@/lib/next/core-api-route";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

export const GET = routeHandler({ maxBodyBytes: 0 }, ({ request }) => forwardToCoreApi(request, () => "/ready"));
