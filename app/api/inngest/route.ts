// GET, POST, PUT /api/inngest – Inngest's endpoint: function sync (PUT), introspection (GET) and runs (POST).
import type { NextRequest } from "next/server";
import { serve } from "inngest/next";
import { getInngest } from "@/inngest/client";
import { getInngestFunctions } from "@/inngest/functions";
import { getEnv, isInngestConfigured } from "@/lib/env";
import { errorJsonResponse, Unavailable } from "@/lib/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

let handler: ReturnType<typeof serve> | undefined;

function getHandler(): ReturnType<typeof serve> | undefined {
  if (!isInngestConfigured(getEnv())) return undefined;
  handler ??= serve({ client: getInngest(), functions: getInngestFunctions() });
  return handler;
}

function notConfigured(): Response {
  return errorJsonResponse(Unavailable("Inngest is not configured; jobs run on the local job runner."));
}

export function GET(request: NextRequest, context: unknown): Promise<Response> | Response {
  return getHandler()?.GET(request, context) ?? notConfigured();
}

export function POST(request: NextRequest, context: unknown): Promise<Response> | Response {
  return getHandler()?.POST(request, context) ?? notConfigured();
}

export function PUT(request: NextRequest, context: unknown): Promise<Response> | Response {
  return getHandler()?.PUT(request, context) ?? notConfigured();
}
