import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { createCompany } from "@/lib/companies/create-company";
import { deleteCompany } from "@/lib/companies/delete-company";
import { getCompanyOrThrow } from "@/lib/companies/get-company-or-throw";
import { listCompanies } from "@/lib/companies/list-companies";
import { serializeCompany } from "@/lib/companies/serialize-company";
import { updateCompany } from "@/lib/companies/update-company";
import { requireCapability } from "@/lib/auth/principal";
import { createLocation } from "@/lib/locations/create-location";
import { deleteLocation } from "@/lib/locations/delete-location";
import { getLocationOrThrow } from "@/lib/locations/get-location-or-throw";
import { listLocations } from "@/lib/locations/list-locations";
import { serializeLocation } from "@/lib/locations/serialize-location";
import { updateLocation } from "@/lib/locations/update-location";
import { createOrganization } from "@/lib/organizations/create-organization";
import { deleteOrganization } from "@/lib/organizations/delete-organization";
import { getOrganizationOrThrow } from "@/lib/organizations/get-organization-or-throw";
import { listOrganizations } from "@/lib/organizations/list-organizations";
import { serializeOrganization } from "@/lib/organizations/serialize-organization";
import { updateOrganization } from "@/lib/organizations/update-organization";
import type { ApiEnv } from "../context";
import { intIdOrThrow } from "../int-id";
import { jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import {
  CompanyListSchema,
  CompanySchema,
  CreateCompanySchema,
  CreateLocationSchema,
  CreateOrganizationSchema,
  IntIdParamSchema,
  ListCompaniesQuerySchema,
  ListLocationsQuerySchema,
  LocationListSchema,
  LocationSchema,
  OrganizationListSchema,
  OrganizationSchema,
  UpdateCompanySchema,
  UpdateLocationSchema,
  UpdateOrganizationSchema,
} from "../schemas/places";
import { PaginationQuerySchema } from "../schemas/pagination";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

const BASE = "/v1/signing/manager";

/** list, create, read, update, delete route definitions for one place resource. */
function crud<L extends z.ZodType, I extends z.ZodType, C extends z.ZodType, U extends z.ZodType, Q extends z.ZodObject>(
  plural: string,
  label: string,
  schemas: { list: L; item: I; create: C; update: U; query: Q },
) {
  const tags = ["Manager places"];
  const path = `${BASE}/${plural}`;
  const Plural = plural[0]!.toUpperCase() + plural.slice(1);
  const Label = label[0]!.toUpperCase() + label.slice(1);
  return {
    // GET /v1/signing/manager/{plural} – in the caller's scope (admin: all, capped).
    list: createRoute({
      method: "get",
      path,
      tags,
      operationId: `list${Plural}`,
      summary: `List ${plural}`,
      request: { query: schemas.query },
      responses: { 200: jsonResponse(schemas.list, `A page of ${plural}`), ...pickErrors(400, 401, 403) },
    }),
    // POST /v1/signing/manager/{plural}
    create: createRoute({
      method: "post",
      path,
      tags,
      operationId: `create${Label}`,
      summary: `Create a ${label}`,
      request: { body: jsonBody(schemas.create) },
      responses: { 201: jsonResponse(schemas.item, `The created ${label}`), ...pickErrors(400, 401, 403, 404, 409) },
    }),
    // GET /v1/signing/manager/{plural}/{id}
    read: createRoute({
      method: "get",
      path: `${path}/{id}`,
      tags,
      operationId: `get${Label}`,
      summary: `Read a ${label}`,
      request: { params: IntIdParamSchema },
      responses: { 200: jsonResponse(schemas.item, `The ${label}`), ...pickErrors(401, 403, 404) },
    }),
    // PATCH /v1/signing/manager/{plural}/{id}
    update: createRoute({
      method: "patch",
      path: `${path}/{id}`,
      tags,
      operationId: `update${Label}`,
      summary: `Update a ${label}`,
      request: { params: IntIdParamSchema, body: jsonBody(schemas.update) },
      responses: { 200: jsonResponse(schemas.item, `The updated ${label}`), ...pickErrors(400, 401, 403, 404) },
    }),
    // DELETE /v1/signing/manager/{plural}/{id} – 409 while it has dependents.
    remove: createRoute({
      method: "delete",
      path: `${path}/{id}`,
      tags,
      operationId: `delete${Label}`,
      summary: `Delete a ${label}`,
      request: { params: IntIdParamSchema },
      responses: { 204: { description: "Deleted" }, ...pickErrors(401, 403, 404, 409) },
    }),
  };
}

const org = crud("organizations", "organization", {
  list: OrganizationListSchema,
  item: OrganizationSchema,
  create: CreateOrganizationSchema,
  update: UpdateOrganizationSchema,
  query: PaginationQuerySchema,
});
const company = crud("companies", "company", {
  list: CompanyListSchema,
  item: CompanySchema,
  create: CreateCompanySchema,
  update: UpdateCompanySchema,
  query: ListCompaniesQuerySchema,
});
const location = crud("locations", "location", {
  list: LocationListSchema,
  item: LocationSchema,
  create: CreateLocationSchema,
  update: UpdateLocationSchema,
  query: ListLocationsQuerySchema,
});

export const managerPlaces = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(org.list, async (c) => c.json(serializePage(await listOrganizations(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") }), serializeOrganization), 200))
  .openapi(org.create, async (c) => {
    const created = await createOrganization(c.get("db"), { principal: c.get("principal"), ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeOrganization(created), 201);
  })
  .openapi(org.read, async (c) => {
    const principal = c.get("principal");
    requireCapability(principal, "organizations:read", "You do not have permission to read organizations.");
    const organizationId = intIdOrThrow(c.req.valid("param").id, "Organization");
    const found = await getOrganizationOrThrow(c.get("db"), { principal, organizationId, capability: "organizations:read" });
    return c.json(serializeOrganization(found), 200);
  })
  .openapi(org.update, async (c) => {
    const organizationId = intIdOrThrow(c.req.valid("param").id, "Organization");
    const updated = await updateOrganization(c.get("db"), { principal: c.get("principal"), organizationId, ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeOrganization(updated), 200);
  })
  .openapi(org.remove, async (c) => {
    const organizationId = intIdOrThrow(c.req.valid("param").id, "Organization");
    await deleteOrganization(c.get("db"), { principal: c.get("principal"), organizationId, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  })
  .openapi(company.list, async (c) => c.json(serializePage(await listCompanies(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") }), serializeCompany), 200))
  .openapi(company.create, async (c) => {
    const created = await createCompany(c.get("db"), { principal: c.get("principal"), ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeCompany(created), 201);
  })
  .openapi(company.read, async (c) => {
    const principal = c.get("principal");
    requireCapability(principal, "companies:read", "You do not have permission to read companies.");
    const companyId = intIdOrThrow(c.req.valid("param").id, "Company");
    return c.json(serializeCompany(await getCompanyOrThrow(c.get("db"), { principal, companyId, capability: "companies:read" })), 200);
  })
  .openapi(company.update, async (c) => {
    const companyId = intIdOrThrow(c.req.valid("param").id, "Company");
    const updated = await updateCompany(c.get("db"), { principal: c.get("principal"), companyId, ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeCompany(updated), 200);
  })
  .openapi(company.remove, async (c) => {
    const companyId = intIdOrThrow(c.req.valid("param").id, "Company");
    await deleteCompany(c.get("db"), { principal: c.get("principal"), companyId, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  })
  .openapi(location.list, async (c) => c.json(serializePage(await listLocations(c.get("db"), { principal: c.get("principal"), ...c.req.valid("query") }), serializeLocation), 200))
  .openapi(location.create, async (c) => {
    const created = await createLocation(c.get("db"), { principal: c.get("principal"), ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeLocation(created), 201);
  })
  .openapi(location.read, async (c) => {
    const principal = c.get("principal");
    requireCapability(principal, "locations:read", "You do not have permission to read locations.");
    const locationId = intIdOrThrow(c.req.valid("param").id, "Location");
    return c.json(serializeLocation(await getLocationOrThrow(c.get("db"), { principal, locationId, capability: "locations:read" })), 200);
  })
  .openapi(location.update, async (c) => {
    const locationId = intIdOrThrow(c.req.valid("param").id, "Location");
    const updated = await updateLocation(c.get("db"), { principal: c.get("principal"), locationId, ...c.req.valid("json"), ipAddress: c.get("ipAddress") });
    return c.json(serializeLocation(updated), 200);
  })
  .openapi(location.remove, async (c) => {
    const locationId = intIdOrThrow(c.req.valid("param").id, "Location");
    await deleteLocation(c.get("db"), { principal: c.get("principal"), locationId, ipAddress: c.get("ipAddress") });
    return c.body(null, 204);
  });
