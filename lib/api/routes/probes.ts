import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { getDbHandle } from "@/db/client";

const HealthSchema = z.object({ ok: z.boolean(), service: z.literal("core-api"), ts: z.iso.datetime() }).openapi("Health");
const ReadySchema = z.object({ ready: z.boolean() }).openapi("Readiness");

// GET /health – liveness: 200 while the process runs.
const health = createRoute({
  method: "get",
  path: "/health",
  tags: ["Probes"],
  security: [],
  responses: { 200: { description: "The process is running", content: { "application/json": { schema: HealthSchema } } } },
});

// GET /ready – readiness: a real database round trip.
const ready = createRoute({
  method: "get",
  path: "/ready",
  tags: ["Probes"],
  security: [],
  responses: {
    200: { description: "The database answers", content: { "application/json": { schema: ReadySchema } } },
    503: { description: "The database is unreachable", content: { "application/json": { schema: ReadySchema } } },
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
