import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { readFramingOrigins, replaceFramingOrigins } from "@/lib/embedded/allowed-origins";
import { removeOrganizationLogo, setOrganizationLogo } from "@/lib/branding/organization-logo";
import { changeMemberRole } from "@/lib/workspace/change-member-role";
import { createBillingPortalSession } from "@/lib/workspace/create-billing-portal-session";
import { createCheckoutSession } from "@/lib/workspace/create-checkout-session";
import { getBillingStatus } from "@/lib/workspace/get-billing-status";
import { getWorkspaceSettings } from "@/lib/workspace/get-workspace-settings";
import { inviteMember } from "@/lib/workspace/invite-member";
import { listMyMemberships } from "@/lib/workspace/list-my-memberships";
import { listOrganizationMembers } from "@/lib/workspace/list-organization-members";
import { removeMembership } from "@/lib/workspace/remove-membership";
import { serializeMembership } from "@/lib/workspace/serialize-membership";
import { updateWorkspaceSettings } from "@/lib/workspace/update-workspace-settings";
import type { ApiEnv } from "../context";
import { LOGO_TYPES } from "@/lib/branding/inspect-logo";
import { readUploadedFile } from "@/lib/uploads/read-uploaded-file";
import { LOGO_UPLOAD, readUpload, readUploadRef } from "../read-upload";
import { AttachUploadJsonSchema, AttachUploadSchema } from "../schemas/package-documents";
import { errorResponses, jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { EmbedOriginsSchema, ReplaceEmbedOriginsSchema } from "../schemas/embedded";
import { OrganizationQuerySchema } from "../schemas/organization-query";
import {
  BillingPortalRequestSchema,
  BillingPortalSchema,
  BillingSchema,
  ChangeRoleSchema,
  CheckoutRequestSchema,
  CheckoutSchema,
  InviteMemberSchema,
  MembersQuerySchema,
  MembershipIdParamSchema,
  MembershipListSchema,
  MembershipSchema,
  MyMembershipListSchema,
  UpdateWorkspaceSettingsSchema,
  WorkspaceSettingsSchema,
} from "../schemas/workspace";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

const TAGS = ["Workspace"];

// GET /v1/workspace/memberships – the caller's organizations and roles.
const myMembershipsRoute = createRoute({
  method: "get",
  path: "/v1/workspace/memberships",
  tags: TAGS,
  operationId: "listMyMemberships",
  summary: "Your organizations and roles",
  responses: { 200: jsonResponse(MyMembershipListSchema, "Your role assignments"), ...pickErrors(401) },
});

// GET /v1/workspace/members – every membership of an organization (org admins).
const membersRoute = createRoute({
  method: "get",
  path: "/v1/workspace/members",
  tags: TAGS,
  operationId: "listMembers",
  summary: "The organization's members",
  request: { query: MembersQuerySchema },
  responses: { 200: jsonResponse(MembershipListSchema, "A page of memberships"), ...pickErrors(400, 401, 403, 404) },
});

// POST /v1/workspace/memberships – invite by email (creates the user if unknown) and mail an invitation.
const inviteRoute = createRoute({
  method: "post",
  path: "/v1/workspace/memberships",
  tags: TAGS,
  operationId: "inviteMember",
  summary: "Invite a member",
  request: { body: jsonBody(InviteMemberSchema) },
  responses: { 201: jsonResponse(MembershipSchema, "The new membership"), ...pickErrors(400, 401, 403, 404, 409) },
});

// PATCH /v1/workspace/memberships/{id} – change a member's role.
const changeRoleRoute = createRoute({
  method: "patch",
  path: "/v1/workspace/memberships/{id}",
  tags: TAGS,
  operationId: "updateMember",
  summary: "Change a member's role",
  request: { params: MembershipIdParamSchema, body: jsonBody(ChangeRoleSchema) },
  responses: { 200: jsonResponse(MembershipSchema, "The membership"), ...pickErrors(400, 401, 403, 404, 409) },
});

// DELETE /v1/workspace/memberships/{id} – remove a membership (never the last org_admin).
const removeRoute = createRoute({
  method: "delete",
  path: "/v1/workspace/memberships/{id}",
  tags: TAGS,
  operationId: "removeMember",
  summary: "Remove a member",
  request: { params: MembershipIdParamSchema },
  responses: { 204: { description: "Removed" }, ...pickErrors(400, 401, 403, 404, 409) },
});

// GET /v1/workspace/settings – name, branding and defaults.
const getSettingsRoute = createRoute({
  method: "get",
  path: "/v1/workspace/settings",
  tags: TAGS,
  operationId: "getWorkspaceSettings",
  summary: "Workspace settings",
  request: { query: OrganizationQuerySchema },
  responses: { 200: jsonResponse(WorkspaceSettingsSchema, "The settings"), ...pickErrors(400, 401, 403, 404) },
});

// PATCH /v1/workspace/settings – change settings; null clears a value.
const updateSettingsRoute = createRoute({
  method: "patch",
  path: "/v1/workspace/settings",
  tags: TAGS,
  operationId: "updateWorkspaceSettings",
  summary: "Update workspace settings",
  request: { query: OrganizationQuerySchema, body: jsonBody(UpdateWorkspaceSettingsSchema) },
  responses: { 200: jsonResponse(WorkspaceSettingsSchema, "The settings"), ...pickErrors(400, 401, 403, 404) },
});

// GET /v1/workspace/settings/embed-origins – the origins allowed to frame embedded signing.
const getEmbedOriginsRoute = createRoute({
  method: "get",
  path: "/v1/workspace/settings/embed-origins",
  tags: TAGS,
  operationId: "getEmbedOrigins",
  summary: "Origins allowed to frame embedded signing",
  request: { query: OrganizationQuerySchema },
  responses: { 200: jsonResponse(EmbedOriginsSchema, "The origins"), ...pickErrors(400, 401, 403, 404) },
});

// PUT /v1/workspace/settings/embed-origins – replace that list.
const putEmbedOriginsRoute = createRoute({
  method: "put",
  path: "/v1/workspace/settings/embed-origins",
  tags: TAGS,
  operationId: "replaceEmbedOrigins",
  summary: "Replace the origins allowed to frame embedded signing",
  description:
    "Each origin is scheme://host[:port]: https, or http for 127.0.0.1 / localhost outside production; no path, query or wildcard (400, " +
    "and nothing changes). At most 10. An empty list stops all framing; sessions already open keep the list they opened with.",
  request: { query: OrganizationQuerySchema, body: jsonBody(ReplaceEmbedOriginsSchema) },
  responses: { 200: jsonResponse(EmbedOriginsSchema, "The origins"), ...pickErrors(400, 401, 403, 404) },
});

const LogoSchema = WorkspaceSettingsSchema.shape.branding.shape.logo.unwrap().openapi("WorkspaceLogo");

// PUT /v1/workspace/settings/logo – upload (replace) the logo: PNG or JPEG, at most 512 KiB and 2000 px a side.
const putLogoRoute = createRoute({
  method: "put",
  path: "/v1/workspace/settings/logo",
  tags: TAGS,
  operationId: "uploadLogo",
  summary: "Upload the organization's logo",
  description:
    "The raw image as the body (`Content-Type: image/png` or `image/jpeg`) or the `file` field of a multipart form, or `application/json` " +
    "naming a direct upload (`{ \"uploadId\": … }`, from `POST /v1/uploads`). " +
    "The type is read from the bytes; SVG and other formats are refused. Served from this origin and shown on signer pages, emails and the certificate.",
  request: {
    query: OrganizationQuerySchema,
    body: {
      content: {
        "application/json": { schema: AttachUploadJsonSchema },
        "image/png": { schema: { type: "string", format: "binary" } },
        "image/jpeg": { schema: { type: "string", format: "binary" } },
        "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary" } }, required: ["file"] } },
      },
      required: true,
    },
  },
  responses: {
    200: jsonResponse(LogoSchema, "The stored logo"),
    ...pickErrors(400, 401, 403, 404, 409),
    413: { ...errorResponses[400], description: "The logo exceeds 512 KiB" },
  },
});

// DELETE /v1/workspace/settings/logo – remove the uploaded logo.
const deleteLogoRoute = createRoute({
  method: "delete",
  path: "/v1/workspace/settings/logo",
  tags: TAGS,
  operationId: "deleteLogo",
  summary: "Remove the organization's logo",
  request: { query: OrganizationQuerySchema },
  responses: { 204: { description: "Removed (also when there was none)" }, ...pickErrors(400, 401, 403, 404) },
});

// GET /v1/workspace/billing – status, plan tier and current period end.
const billingRoute = createRoute({
  method: "get",
  path: "/v1/workspace/billing",
  tags: TAGS,
  operationId: "getBilling",
  summary: "Billing status",
  request: { query: OrganizationQuerySchema },
  responses: { 200: jsonResponse(BillingSchema, "The billing status (free/active without a record)"), ...pickErrors(400, 401, 403, 404) },
});

// POST /v1/workspace/billing/checkout – a Stripe Checkout link for a paid tier.
const checkoutRoute = createRoute({
  method: "post",
  path: "/v1/workspace/billing/checkout",
  tags: TAGS,
  operationId: "startCheckout",
  summary: "Start a subscription checkout",
  request: { body: jsonBody(CheckoutRequestSchema) },
  responses: { 200: jsonResponse(CheckoutSchema, "Where to send the user"), ...pickErrors(400, 401, 403, 404, 503) },
});

// POST /v1/workspace/billing/portal – a Stripe billing portal link for the organization's customer.
const portalRoute = createRoute({
  method: "post",
  path: "/v1/workspace/billing/portal",
  tags: TAGS,
  operationId: "openBillingPortal",
  summary: "Open the billing portal",
  request: { body: jsonBody(BillingPortalRequestSchema) },
  responses: { 200: jsonResponse(BillingPortalSchema, "Where to send the user"), ...pickErrors(400, 401, 403, 404, 409, 503) },
});

export const workspace = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(myMembershipsRoute, async (c) => c.json({ data: await listMyMemberships(c.get("db"), { principal: c.get("principal") }) }, 200))
  .openapi(membersRoute, async (c) => c.json(serializePage(await listOrganizationMembers(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") }), serializeMembership), 200))
  .openapi(inviteRoute, async (c) => {
    const membership = await inviteMember(c.get("db"), { principal: c.get("principal"), ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(membership, 201);
  })
  .openapi(changeRoleRoute, async (c) => {
    const membership = await changeMemberRole(c.get("db"), {
      principal: c.get("principal"),
      membershipId: c.req.valid("param").id,
      role: c.req.valid("json").role,
      ipAddress: c.get("ipAddress"),
    });
    return c.json(membership, 200);
  })
  .openapi(removeRoute, async (c) => {
    await removeMembership(c.get("db"), { principal: c.get("principal"), membershipId: c.req.valid("param").id, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  })
  .openapi(getSettingsRoute, async (c) => c.json(await getWorkspaceSettings(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") }), 200))
  .openapi(updateSettingsRoute, async (c) => {
    const settings = await updateWorkspaceSettings(c.get("db"), {
      principal: c.get("principal"),
      ...c.req.valid("query"),
      change: c.req.valid("json"),
      ipAddress: c.get("ipAddress"),
    });
    return c.json(settings, 200);
  })
  .openapi(getEmbedOriginsRoute, async (c) => {
    const { origins } = await readFramingOrigins(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") });
    return c.json({ origins }, 200);
  })
  .openapi(putEmbedOriginsRoute, async (c) => {
    const { origins } = await replaceFramingOrigins(c.get("db"), {
      principal: c.get("principal"),
      ...c.req.valid("query"),
      origins: c.req.valid("json").origins,
      ipAddress: c.get("ipAddress"),
    });
    return c.json({ origins }, 200);
  })
  .openapi(putLogoRoute, async (c) => {
    const principal = c.get("principal");
    const ref = await readUploadRef(c, AttachUploadSchema);
    const file = ref
      ? await readUploadedFile(c.get("db"), { principal, uploadId: ref.uploadId, accept: LOGO_TYPES })
      : await readUpload(c, LOGO_UPLOAD);
    const logo = await setOrganizationLogo(c.get("db"), {
      principal,
      ...c.req.valid("query"),
      bytes: file.bytes,
      ipAddress: c.get("ipAddress"),
    });
    return c.json(logo, 200);
  })
  .openapi(deleteLogoRoute, async (c) => {
    await removeOrganizationLogo(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query"), ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  })
  .openapi(billingRoute, async (c) => c.json(await getBillingStatus(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") }), 200))
  .openapi(checkoutRoute, async (c) => c.json(await createCheckoutSession(c.get("db"), { principal: c.get("principal"), ...c.req.valid("json") }), 200))
  .openapi(portalRoute, async (c) => c.json(await createBillingPortalSession(c.get("db"), { principal: c.get("principal"), ...c.req.valid("json") }), 200));
