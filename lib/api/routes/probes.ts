import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { getDbHandle } from "@/db/client";
import { jsonResponse } from "../schemas/common";

const HealthSchema = z.object({ ok: z.boolean(), service: z.literal("core-api"), ts: z.iso.datetime() }).openapi("Health");
const ReadySchema = z.object({ ready: z.boolean() }).openapi("Readiness");

// GET /health – liveness: 200 while the process runs.
const health = createRoute({
  method: "get",
  path: "/health",
  tags: ["Probes"],
  operationId: "getHealth",
  summary: "Liveness: the process is running",
  security: [],
  responses: { 200: jsonResponse(HealthSchema, "The process is running") },
});

// GET /ready – readiness: a real database round trip.
const ready = createRoute({
  method: "get",
  path: "/ready",
  tags: ["Probes"],
  operationId: "getReadiness",
  summary: "Readiness: the database answers a round trip",
  security: [],
  responses: {
    200: jsonResponse(ReadySchema, "The database answers"),
    503: jsonResponse(ReadySchema, "The database is unreachable"),
  },
});

export const probes = new OpenAPIHono()
  .openapi(health, (c) => c.json({ ok: true, service: "core-api" as const, ts: new Date().toISOString() }, 200))
  .openapi(ready, async (c) => {
    try {
      await (await getDbHandle()).ping();
      return c.json({ ready: true }, 200);
    } catch {
      return c.json({ ready: false }, 503);
    }
  });
