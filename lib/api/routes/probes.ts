import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { getDbHandle } from "@/lib/db/process-db";
import { readMigrationStatus } from "@/db/migration-status";
import { jsonResponse } from "../schemas/common";

const HealthSchema = z.object({ ok: z.boolean(), service: z.literal("core-api"), ts: z.iso.datetime() }).openapi("Health");
const ReadySchema = z
  .object({
    ready: z.boolean(),
    /** Why the process is not ready (database unreachable, schema behind this release). */
    reason: z.string().optional(),
  })
  .openapi("Readiness");

// Once a database's schema has caught up with this release it never falls behind again: checked until then.
const currentSchemas = new WeakSet<object>();

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

// GET /ready – readiness: a real database round trip, and the schema is at least this release's.
const ready = createRoute({
  method: "get",
  path: "/ready",
  tags: ["Probes"],
  operationId: "getReadiness",
  summary: "Readiness: the database answers a round trip",
  security: [],
  responses: {
    200: jsonResponse(ReadySchema, "The database answers and holds every migration of this release"),
    503: jsonResponse(ReadySchema, "The database is unreachable, or its schema is behind this release (`npm run db:migrate`)"),
  },
});

export const probes = new OpenAPIHono()
  .openapi(health, (c) => c.json({ ok: true, service: "core-api" as const, ts: new Date().toISOString() }, 200))
  .openapi(ready, async (c) => {
    let handle;
    try {
      handle = await getDbHandle();
      await handle.ping();
    } catch {
      return c.json({ ready: false, reason: "the database does not answer" }, 503);
    }
    if (!currentSchemas.has(handle)) {
      try {
        const status = await readMigrationStatus(handle.db);
        if (!status.current) return c.json({ ready: false, reason: status.reason }, 503);
        currentSchemas.add(handle);
      } catch {
        return c.json({ ready: false, reason: "the database does not answer" }, 503);
      }
    }
    return c.json({ ready: true }, 200);
  });
