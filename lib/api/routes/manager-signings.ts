import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { cancelSigning } from "@/lib/signings/cancel-signing";
import { createSigning } from "@/lib/signings/create-signing";
import { deleteSigning } from "@/lib/signings/delete-signing";
import { getSigningDetail } from "@/lib/signings/get-signing-detail";
import { serializeSigningDetail } from "@/lib/signings/serialize-signing-detail";
import { listSignings } from "@/lib/signings/list-signings";
import { remindSigners } from "@/lib/signings/remind-signers";
import { sendSigning } from "@/lib/signings/send-signing";
import { serializeSigning } from "@/lib/packages/serialize-signing";
import { updateSigning } from "@/lib/signings/update-signing";
import type { ApiEnv } from "../context";
import { jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import {
  CancelSigningSchema,
  RemindSignersResultSchema,
  CreateSigningSchema,
  ListSigningsQuerySchema,
  SigningDetailSchema,
  SigningIdParamSchema,
  SigningListSchema,
  SigningSchema,
  UpdateSigningSchema,
} from "../schemas/signings";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

const PATH = "/v1/signing/manager/signings";
const tags = ["Manager signings"];

// GET /v1/signing/manager/signings – packages in the caller's scope, newest first, filterable.
const listRoute = createRoute({
  method: "get",
  path: PATH,
  tags,
  operationId: "listSignings",
  summary: "List signing packages",
  request: { query: ListSigningsQuerySchema },
  responses: { 200: jsonResponse(SigningListSchema, "A page of signing packages"), ...pickErrors(400, 401, 403) },
});

// POST /v1/signing/manager/signings – create a draft signing package at a location.
const createSigningRoute = createRoute({
  method: "post",
  path: PATH,
  tags,
  operationId: "createSigning",
  summary: "Create a draft signing package",
  description:
    "Optionally from a template (its documents are copied; its roles become signers for the `signers` entries naming them) " +
    "and with a flow (default: the organization's default flow).",
  request: { body: jsonBody(CreateSigningSchema) },
  responses: { 201: jsonResponse(SigningSchema, "The created draft package"), ...pickErrors(400, 401, 403, 404) },
});

// GET /v1/signing/manager/signings/{id} – one package with its signers and documents' metadata.
const getRoute = createRoute({
  method: "get",
  path: `${PATH}/{id}`,
  tags,
  operationId: "getSigning",
  summary: "Read a signing package",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(SigningDetailSchema, "The package"), ...pickErrors(401, 403, 404) },
});

// PATCH /v1/signing/manager/signings/{id} – edit a draft.
const updateRoute = createRoute({
  method: "patch",
  path: `${PATH}/{id}`,
  tags,
  operationId: "updateSigning",
  summary: "Edit a draft signing package",
  request: { params: SigningIdParamSchema, body: jsonBody(UpdateSigningSchema) },
  responses: { 200: jsonResponse(SigningSchema, "The updated package"), ...pickErrors(400, 401, 403, 404, 409) },
});

// DELETE /v1/signing/manager/signings/{id} – delete a draft.
const deleteRoute = createRoute({
  method: "delete",
  path: `${PATH}/{id}`,
  tags,
  operationId: "deleteSigning",
  summary: "Delete a draft signing package",
  request: { params: SigningIdParamSchema },
  responses: { 204: { description: "Deleted" }, ...pickErrors(401, 403, 404, 409) },
});

// POST /v1/signing/manager/signings/{id}/send – draft → sent; invites the first routing group.
const sendRoute = createRoute({
  method: "post",
  path: `${PATH}/{id}/send`,
  tags,
  operationId: "sendSigning",
  summary: "Send a draft to its signers",
  description: "Needs at least one signer and one document (409 otherwise), and every signer's code or mobile number their proof method needs (400 otherwise). Creates a signature request per signer and document and emails the first routing group.",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(SigningSchema, "The sent package"), ...pickErrors(401, 403, 404, 409) },
});

// POST /v1/signing/manager/signings/{id}/cancel – draft|sent|in_progress → cancelled.
const cancelRoute = createRoute({
  method: "post",
  path: `${PATH}/{id}/cancel`,
  tags,
  operationId: "cancelSigning",
  summary: "Cancel a signing package",
  description: "409 when the package is already cancelled, or has completed, been declined or expired.",
  request: { params: SigningIdParamSchema, body: { required: false, content: { "application/json": { schema: CancelSigningSchema } } } },
  responses: { 200: jsonResponse(SigningSchema, "The cancelled package"), ...pickErrors(400, 401, 403, 404, 409) },
});

// POST /v1/signing/manager/signings/{id}/remind – email the signers whose turn it is.
const remindRoute = createRoute({
  method: "post",
  path: `${PATH}/{id}/remind`,
  tags,
  operationId: "remindSigners",
  summary: "Remind the current routing group",
  description:
    "Emails every signer of a sent or in-progress package who was invited and has not signed or declined. At most one reminder per " +
    "signer per hour: a repeated call within the hour emails nobody again and lists them under `alreadyRemindedSignerIds`. 409 when the " +
    "package is not sent or in progress.",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(RemindSignersResultSchema, "Who was reminded"), ...pickErrors(401, 403, 404, 409) },
});

export const managerSignings = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    const page = await listSignings(c.get("db"), { principal: c.get("principal"), ...query });
    return c.json(serializePage(page, serializeSigning), 200);
  })
  .openapi(createSigningRoute, async (c) => {
    const body = c.req.valid("json");
    const { documents, ...rest } = body;
    const created = await createSigning(c.get("db"), {
      principal: c.get("principal"),
      ...rest,
      documents: documents?.map((d) =>
        d.uploadId !== undefined
          ? { uploadId: d.uploadId, name: d.name, executionMode: d.executionMode }
          : { name: d.name, bytes: Buffer.from(d.contentBase64 ?? "", "base64"), executionMode: d.executionMode },
      ),
      ipAddress: c.get("ipAddress"),
    });
    return c.json(serializeSigning(created), 201);
  })
  .openapi(getRoute, async (c) => {
    const { id } = c.req.valid("param");
    const detail = await getSigningDetail(c.get("db"), { principal: c.get("principal"), packageId: id });
    return c.json(serializeSigningDetail(detail), 200);
  })
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const updated = await updateSigning(c.get("db"), { principal: c.get("principal"), packageId: id, ...body, ipAddress: c.get("ipAddress") });
    return c.json(serializeSigning(updated), 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid("param");
    await deleteSigning(c.get("db"), { principal: c.get("principal"), packageId: id, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  })
  .openapi(sendRoute, async (c) => {
    const { id } = c.req.valid("param");
    const sent = await sendSigning(c.get("db"), { principal: c.get("principal"), packageId: id, ipAddress: c.get("ipAddress") });
    return c.json(serializeSigning(sent), 200);
  })
  .openapi(cancelRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { reason } = c.req.valid("json");
    const cancelled = await cancelSigning(c.get("db"), { principal: c.get("principal"), packageId: id, reason, ipAddress: c.get("ipAddress") });
    return c.json(serializeSigning(cancelled), 200);
  })
  .openapi(remindRoute, async (c) => {
    const result = await remindSigners(c.get("db"), { principal: c.get("principal"), packageId: c.req.valid("param").id, ipAddress: c.get("ipAddress") });
    return c.json(result, 200);
  });
