import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { deleteWebhookEndpoint } from "@/lib/webhooks/delete-webhook-endpoint";
import { getWebhookEndpointOrThrow } from "@/lib/webhooks/get-webhook-endpoint-or-throw";
import { listWebhookDeliveries } from "@/lib/webhooks/list-webhook-deliveries";
import { listWebhookEndpoints } from "@/lib/webhooks/list-webhook-endpoints";
import { replayWebhookEvents } from "@/lib/webhooks/replay-webhook-events";
import { rotateWebhookSecret } from "@/lib/webhooks/rotate-webhook-secret";
import { sendTestWebhookEvent } from "@/lib/webhooks/send-test-webhook-event";
import { serializeWebhookEndpoint } from "@/lib/webhooks/serialize-webhook-endpoint";
import { updateWebhookEndpoint } from "@/lib/webhooks/update-webhook-endpoint";
import type { ApiEnv } from "../context";
import { jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { OrganizationQuerySchema } from "../schemas/organization-query";
import {
  CreateWebhookEndpointSchema,
  ReplayWebhookEventsSchema,
  RotateWebhookSecretSchema,
  UpdateWebhookEndpointSchema,
  WebhookDeliveriesQuerySchema,
  WebhookDeliveryPageSchema,
  WebhookEndpointIdParamSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookReplaySchema,
  WebhookTestSchema,
} from "../schemas/webhooks";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

const TAGS = ["Webhooks"];
const BASE = "/v1/workspace/webhooks";

// GET /v1/workspace/webhooks – the organization's endpoints.
const listRoute = createRoute({
  method: "get",
  path: BASE,
  tags: TAGS,
  operationId: "listWebhookEndpoints",
  summary: "List webhook endpoints",
  request: { query: OrganizationQuerySchema },
  responses: { 200: jsonResponse(WebhookEndpointListSchema, "The endpoints"), ...pickErrors(400, 401, 403, 404) },
});

// POST /v1/workspace/webhooks – add an endpoint; its signing secret is in this answer only.
const createEndpointRoute = createRoute({
  method: "post",
  path: BASE,
  tags: TAGS,
  operationId: "createWebhookEndpoint",
  summary: "Add a webhook endpoint",
  description: "The URL must be https in production and reach a public address. The answer holds the signing secret (`whsec_…`), shown only here.",
  request: { body: jsonBody(CreateWebhookEndpointSchema) },
  responses: { 201: jsonResponse(WebhookEndpointWithSecretSchema, "The endpoint and its secret"), ...pickErrors(400, 401, 403, 404) },
});

// GET /v1/workspace/webhooks/{id} – one endpoint.
const getEndpointRoute = createRoute({
  method: "get",
  path: `${BASE}/{id}`,
  tags: TAGS,
  operationId: "getWebhookEndpoint",
  summary: "Get a webhook endpoint",
  request: { params: WebhookEndpointIdParamSchema },
  responses: { 200: jsonResponse(WebhookEndpointSchema, "The endpoint"), ...pickErrors(400, 401, 403, 404) },
});

// PATCH /v1/workspace/webhooks/{id} – edit, pause or resume.
const updateEndpointRoute = createRoute({
  method: "patch",
  path: `${BASE}/{id}`,
  tags: TAGS,
  operationId: "updateWebhookEndpoint",
  summary: "Edit, pause or resume a webhook endpoint",
  request: { params: WebhookEndpointIdParamSchema, body: jsonBody(UpdateWebhookEndpointSchema) },
  responses: { 200: jsonResponse(WebhookEndpointSchema, "The endpoint"), ...pickErrors(400, 401, 403, 404) },
});

// DELETE /v1/workspace/webhooks/{id} – remove an endpoint and its delivery log.
const deleteEndpointRoute = createRoute({
  method: "delete",
  path: `${BASE}/{id}`,
  tags: TAGS,
  operationId: "deleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  request: { params: WebhookEndpointIdParamSchema },
  responses: { 204: { description: "Deleted" }, ...pickErrors(400, 401, 403, 404) },
});

// POST /v1/workspace/webhooks/{id}/rotate-secret – a new secret; the previous one signs too during the overlap.
const rotateRoute = createRoute({
  method: "post",
  path: `${BASE}/{id}/rotate-secret`,
  tags: TAGS,
  operationId: "rotateWebhookSecret",
  summary: "Rotate the signing secret",
  description: "The new secret is in this answer only. During `overlapHours` every message carries two signatures, one per secret.",
  request: { params: WebhookEndpointIdParamSchema, body: jsonBody(RotateWebhookSecretSchema) },
  responses: { 200: jsonResponse(WebhookEndpointWithSecretSchema, "The endpoint and its new secret"), ...pickErrors(400, 401, 403, 404) },
});

// POST /v1/workspace/webhooks/{id}/test – send a webhook.test event to this endpoint.
const testRoute = createRoute({
  method: "post",
  path: `${BASE}/{id}/test`,
  tags: TAGS,
  operationId: "sendTestWebhookEvent",
  summary: "Send a test event",
  request: { params: WebhookEndpointIdParamSchema },
  responses: { 202: jsonResponse(WebhookTestSchema, "The event is on its way; see the delivery log"), ...pickErrors(400, 401, 403, 404, 409) },
});

// GET /v1/workspace/webhooks/{id}/deliveries – the delivery log, newest first.
const deliveriesRoute = createRoute({
  method: "get",
  path: `${BASE}/{id}/deliveries`,
  tags: TAGS,
  operationId: "listWebhookDeliveries",
  summary: "List an endpoint's deliveries and attempts",
  request: { params: WebhookEndpointIdParamSchema, query: WebhookDeliveriesQuerySchema },
  responses: { 200: jsonResponse(WebhookDeliveryPageSchema, "A page of deliveries"), ...pickErrors(400, 401, 403, 404) },
});

// POST /v1/workspace/webhooks/{id}/replay – send one event, or everything since a time, again.
const replayRoute = createRoute({
  method: "post",
  path: `${BASE}/{id}/replay`,
  tags: TAGS,
  operationId: "replayWebhookEvents",
  summary: "Replay events",
  description: "New deliveries of past events, with their original `webhook-id`: one event (`eventId`) or every event of the endpoint's types since a time (`since`, at most 1,000).",
  request: { params: WebhookEndpointIdParamSchema, body: jsonBody(ReplayWebhookEventsSchema) },
  responses: { 202: jsonResponse(WebhookReplaySchema, "The deliveries are on their way"), ...pickErrors(400, 401, 403, 404, 409) },
});

export const webhooks = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listRoute, async (c) => c.json({ data: await listWebhookEndpoints(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") }) }, 200))
  .openapi(createEndpointRoute, async (c) => c.json(await createWebhookEndpoint(c.get("db"), { principal: c.get("principal"), ...c.req.valid("json") }), 201))
  .openapi(getEndpointRoute, async (c) => {
    const endpoint = await getWebhookEndpointOrThrow(c.get("db"), { principal: c.get("principal"), endpointId: c.req.valid("param").id, capability: "settings:read" });
    return c.json(serializeWebhookEndpoint(endpoint), 200);
  })
  .openapi(updateEndpointRoute, async (c) =>
    c.json(await updateWebhookEndpoint(c.get("db"), { principal: c.get("principal"), endpointId: c.req.valid("param").id, change: c.req.valid("json") }), 200),
  )
  .openapi(deleteEndpointRoute, async (c) => {
    await deleteWebhookEndpoint(c.get("db"), { principal: c.get("principal"), endpointId: c.req.valid("param").id });
    return c.body(null, 204);
  })
  .openapi(rotateRoute, async (c) =>
    c.json(await rotateWebhookSecret(c.get("db"), { principal: c.get("principal"), endpointId: c.req.valid("param").id, ...c.req.valid("json") }), 200),
  )
  .openapi(testRoute, async (c) => c.json(await sendTestWebhookEvent(c.get("db"), { principal: c.get("principal"), endpointId: c.req.valid("param").id }), 202))
  .openapi(deliveriesRoute, async (c) => {
    const { since, ...query } = c.req.valid("query");
    const page = await listWebhookDeliveries(c.get("db"), {
      principal: c.get("principal"),
      endpointId: c.req.valid("param").id,
      ...query,
      ...(since ? { since: new Date(since) } : {}),
    });
    return c.json(serializePage(page, (row) => row), 200);
  })
  .openapi(replayRoute, async (c) => {
    const body = c.req.valid("json");
    const target = "eventId" in body ? { eventId: body.eventId } : { since: new Date(body.since) };
    return c.json(await replayWebhookEvents(c.get("db"), { principal: c.get("principal"), endpointId: c.req.valid("param").id, ...target }), 202);
  });
