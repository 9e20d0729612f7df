import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { getDb } from "@/db/client";
import { createSigning } from "@/lib/signings/create-signing";
import { serializeSigning } from "@/lib/signings/serialize-signing";
import { clientIp } from "../client-ip";
import type { ApiEnv } from "../context";
import { pickErrors } from "../schemas/common";
import { CreateSigningSchema, SigningSchema } from "../schemas/signings";
import { validationHook } from "../validation";

// POST /v1/signing/manager/signings – create a draft signing package at a location.
const createSigningRoute = createRoute({
  method: "post",
  path: "/v1/signing/manager/signings",
  tags: ["Manager signings"],
  summary: "Create a draft signing package",
  request: { body: { required: true, content: { "application/json": { schema: CreateSigningSchema } } } },
  responses: {
    201: { description: "The created draft package", content: { "application/json": { schema: SigningSchema } } },
    ...pickErrors(400, 401, 403, 404),
  },
});

export const managerSignings = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook }).openapi(
  createSigningRoute,
  async (c) => {
    const body = c.req.valid("json");
    const created = await createSigning(await getDb(), {
      principal: c.get("principal"),
      locationId: body.locationId,
      title: body.title,
      message: body.message,
      ipAddress: clientIp(c),
    });
    return c.json(serializeSigning(created), 201);
  },
);
