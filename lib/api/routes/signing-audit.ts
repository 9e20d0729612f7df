import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { getSigningAuditTrail } from "@/lib/signings/get-signing-audit-trail";
import { serializeAuditEntry } from "@/lib/audit/serialize-audit-entry";
import type { ApiEnv } from "../context";
import { AuditTrailSchema } from "../schemas/audit";
import { jsonResponse, pickErrors } from "../schemas/common";
import { PaginationQuerySchema } from "../schemas/pagination";
import { SigningIdParamSchema } from "../schemas/signer";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

// GET /v1/signing/manager/signings/{id}/audit – the package's audit trail and its hash-chain check.
const auditRoute = createRoute({
  method: "get",
  path: "/v1/signing/manager/signings/{id}/audit",
  tags: ["Manager signings"],
  operationId: "getAuditTrail",
  summary: "Read a package's audit trail",
  description: "Entries in order, with `verified`/`brokenAt` from re-computing the whole hash chain.",
  request: { params: SigningIdParamSchema, query: PaginationQuerySchema },
  responses: {
    200: jsonResponse(AuditTrailSchema, "The audit trail"),
    ...pickErrors(400, 401, 403, 404),
  },
});

export const signingAudit = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook }).openapi(auditRoute, async (c) => {
  const trail = await getSigningAuditTrail(c.get("db"), {
    principal: c.get("principal"),
    packageId: c.req.valid("param").id,
    ...c.req.valid("query"),
  });
  return c.json(serializePage(trail, serializeAuditEntry), 200);
});
