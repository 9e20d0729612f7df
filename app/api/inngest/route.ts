// GET, POST, PUT /api/inngest – Inngest's endpoint: function sync (PUT), introspection (GET) and runs (POST).
import { NextRequest } from "next/server";
import { serve } from "inngest/next";
import { getInngest } from "@/lib/jobs/inngest-client";
import { getInngestFunctions } from "@/inngest/functions";
import { getEnv, isInngestConfigured } from "@/lib/env";
import { Unavailable } from "@/lib/errors";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";
// Inngest runs the jobs here (sealing, scan pages): each step within this limit (docs/deploy.md).
export const maxDuration = 300;
export const runtime = "nodejs";

let handler: ReturnType<typeof serve> | undefined;

function getHandler(): ReturnType<typeof serve> {
  if (!isInngestConfigured(getEnv())) throw Unavailable("Inngest is not configured; jobs run on the local job runner.");
  handler ??= serve({ client: getInngest(), functions: getInngestFunctions() });
  return handler;
}

/**
 * Runs carry the event and the memoized step outputs; our jobs' payloads and step results are ids
 * and small objects. When a run's state is large, Inngest sends `use_api` and the SDK fetches it
 * instead, so 4 MiB bounds what an unsigned sender can make us buffer without cutting real runs.
 */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

function inngestRoute(method: "GET" | "POST" | "PUT") {
  return routeHandler({ maxBodyBytes: MAX_BODY_BYTES }, ({ request, rawBody, params }) => {
    const serveMethod = getHandler()[method];
    const replay = new NextRequest(request.url, {
      method: request.method,
      headers: request.headers,
      body: method === "GET" ? undefined : Buffer.from(rawBody),
      signal: request.signal,
    });
    return serveMethod(replay, params);
  });
}

export const GET = inngestRoute("GET");
export const POST = inngestRoute("POST");
export const PUT = inngestRoute("PUT");
