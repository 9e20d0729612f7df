import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { jsonResponse, pickErrors } from "../schemas/common";
import { SessionSchema } from "../schemas/session";

// GET /v1/signing/session – the caller, their role assignments and capabilities.
const getSession = createRoute({
  method: "get",
  path: "/v1/signing/session",
  tags: ["Signing session"],
  operationId: "getSession",
  summary: "The caller's signing session",
  responses: {
    200: jsonResponse(SessionSchema, "The signing session"),
    ...pickErrors(401),
  },
});

export const session = new OpenAPIHono<ApiEnv>().openapi(getSession, (c) => {
  const { user, roles, capabilities } = c.get("principal");
  return c.json({ user, roles, capabilities }, 200);
});
