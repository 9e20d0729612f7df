import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { embeddedSigningUrl, issueEmbeddedUrl } from "@/lib/embedded/embedded-url";
import { inPersonSigningUrl, issueInPersonUrl } from "@/lib/in-person/in-person-url";
import { resendInvitation } from "@/lib/signer-access/resend-invitation";
import { addSigner } from "@/lib/signings/add-signer";
import { listSigners } from "@/lib/signings/list-signers";
import { removeSigner } from "@/lib/signings/remove-signer";
import { serializeSigner } from "@/lib/signings/serialize-signer";
import { updateSigner } from "@/lib/signings/update-signer";
import type { ApiEnv } from "../context";
import { jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { EmbeddedUrlSchema } from "../schemas/embedded";
import { CreateInPersonUrlSchema, InPersonUrlSchema } from "../schemas/in-person";
import { CreateSignerSchema, SignerListSchema, SignerParamsSchema, SignerSchema, UpdateSignerSchema } from "../schemas/signers";
import { SigningIdParamSchema } from "../schemas/signings";
import { validationHook } from "../validation";

const PATH = "/v1/signing/manager/signings/{id}/signers";
const tags = ["Manager signings"];

// GET /v1/signing/manager/signings/{id}/signers – the package's signers in routing order.
const listRoute = createRoute({
  method: "get",
  path: PATH,
  tags,
  operationId: "listSigners",
  summary: "List a package's signers",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(SignerListSchema, "The signers"), ...pickErrors(401, 403, 404) },
});

// POST /v1/signing/manager/signings/{id}/signers – add a signer to a draft.
const addRoute = createRoute({
  method: "post",
  path: PATH,
  tags,
  operationId: "addSigner",
  summary: "Add a signer to a draft",
  description: "The email is unique per package (409). A user with that email (case-insensitive) is linked to the signer.",
  request: { params: SigningIdParamSchema, body: jsonBody(CreateSignerSchema) },
  responses: { 201: jsonResponse(SignerSchema, "The added signer"), ...pickErrors(400, 401, 403, 404, 409) },
});

// PATCH /v1/signing/manager/signings/{id}/signers/{signerId} – edit a signer of a draft.
const updateRoute = createRoute({
  method: "patch",
  path: `${PATH}/{signerId}`,
  tags,
  operationId: "updateSigner",
  summary: "Edit a signer of a draft",
  request: { params: SignerParamsSchema, body: jsonBody(UpdateSignerSchema) },
  responses: { 200: jsonResponse(SignerSchema, "The updated signer"), ...pickErrors(400, 401, 403, 404, 409) },
});

// DELETE /v1/signing/manager/signings/{id}/signers/{signerId} – remove a signer from a draft.
const removeRoute = createRoute({
  method: "delete",
  path: `${PATH}/{signerId}`,
  tags,
  operationId: "removeSigner",
  summary: "Remove a signer from a draft",
  request: { params: SignerParamsSchema },
  responses: { 204: { description: "Removed" }, ...pickErrors(401, 403, 404, 409) },
});

// POST /v1/signing/manager/signings/{id}/signers/{signerId}/resend – email the signer a new access link.
const resendRoute = createRoute({
  method: "post",
  path: `${PATH}/{signerId}/resend`,
  tags,
  operationId: "resendSignerInvitation",
  summary: "Resend a signer's invitation",
  description:
    "Emails the invitation again with a new access link; the signer's older links stop working. For a signer who was invited and has not " +
    "signed or declined, on a sent or in-progress package (409 otherwise). At most once a minute per signer (429).",
  request: { params: SignerParamsSchema },
  responses: { 200: jsonResponse(SignerSchema, "The signer"), ...pickErrors(401, 403, 404, 409, 429) },
});

// POST /v1/signing/manager/signings/{id}/signers/{signerId}/embedded-url – a single-use URL to sign inside the lender's site.
const embeddedUrlRoute = createRoute({
  method: "post",
  path: `${PATH}/{signerId}/embedded-url`,
  tags,
  operationId: "createEmbeddedSigningUrl",
  summary: "Issue an embedded signing URL",
  description:
    "A URL for an iframe on one of the organization's allowed origins (PUT /v1/workspace/settings/embed-origins): it opens once, within " +
    "five minutes, a session for this signer of this package. For a signer who has not signed or declined, on a sent or in-progress " +
    "package, in an organization that lists at least one origin (409 otherwise). Issue a new one each time the signer opens the page.",
  request: { params: SignerParamsSchema },
  responses: { 201: jsonResponse(EmbeddedUrlSchema, "The URL and when it stops working"), ...pickErrors(401, 403, 404, 409) },
});

// POST /v1/signing/manager/signings/{id}/signers/{signerId}/in-person-url – a single-use URL that starts signing in person at the desk.
const inPersonUrlRoute = createRoute({
  method: "post",
  path: `${PATH}/{signerId}/in-person-url`,
  tags,
  operationId: "createInPersonSigningUrl",
  summary: "Issue an in-person signing URL",
  description:
    "For your own desk app: the API key's user (the host) has checked the signer's identification face to face. The URL, opened on the " +
    "device at the desk, starts that signer's in-person session as the console's hand-over does (whoever is signed in on that browser is " +
    "signed out; the signer sees only this package and hands the device back); it opens once, within five minutes. The host and the " +
    "identification are recorded in the audit trail and on the certificate. For a signer who has not signed or declined, on a sent or " +
    "in-progress package (409 otherwise); another organization's package or signer is a 404.",
  request: { params: SignerParamsSchema, body: jsonBody(CreateInPersonUrlSchema) },
  responses: { 201: jsonResponse(InPersonUrlSchema, "The URL and when it stops working"), ...pickErrors(400, 401, 403, 404, 409) },
});

export const managerSigners = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listRoute, async (c) => {
    const { id } = c.req.valid("param");
    const rows = await listSigners(c.get("db"), { principal: c.get("principal"), packageId: id });
    return c.json({ data: rows.map(serializeSigner) }, 200);
  })
  .openapi(addRoute, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const signer = await addSigner(c.get("db"), { principal: c.get("principal"), packageId: id, ...body, ipAddress: c.get("ipAddress") });
    return c.json(serializeSigner(signer), 201);
  })
  .openapi(updateRoute, async (c) => {
    const { id, signerId } = c.req.valid("param");
    const body = c.req.valid("json");
    const signer = await updateSigner(c.get("db"), { principal: c.get("principal"), packageId: id, signerId, ...body, ipAddress: c.get("ipAddress") });
    return c.json(serializeSigner(signer), 200);
  })
  .openapi(resendRoute, async (c) => {
    const { id, signerId } = c.req.valid("param");
    const signer = await resendInvitation(c.get("db"), { principal: c.get("principal"), packageId: id, signerId, ipAddress: c.get("ipAddress") });
    return c.json(serializeSigner(signer), 200);
  })
  .openapi(removeRoute, async (c) => {
    const { id, signerId } = c.req.valid("param");
    await removeSigner(c.get("db"), { principal: c.get("principal"), packageId: id, signerId, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  })
  .openapi(embeddedUrlRoute, async (c) => {
    const { id, signerId } = c.req.valid("param");
    const issued = await issueEmbeddedUrl(c.get("db"), { principal: c.get("principal"), packageId: id, signerId, ipAddress: c.get("ipAddress") });
    return c.json({ url: embeddedSigningUrl(issued.token), expiresAt: issued.expiresAt.toISOString() }, 201);
  })
  .openapi(inPersonUrlRoute, async (c) => {
    const { id, signerId } = c.req.valid("param");
    const { identification } = c.req.valid("json");
    const issued = await issueInPersonUrl(c.get("db"), {
      principal: c.get("principal"),
      packageId: id,
      signerId,
      identification: { ...identification, idLastFour: identification.idLastFour.toUpperCase() },
      ipAddress: c.get("ipAddress"),
    });
    return c.json({ url: inPersonSigningUrl(issued.token), expiresAt: issued.expiresAt.toISOString() }, 201);
  });
