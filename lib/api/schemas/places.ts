import { z } from "@hono/zod-openapi";
import { IsoDateTime, SafeString } from "./common";
import { PaginationQuerySchema } from "./pagination";

// Organizations, companies and locations: the places a manager's memberships are scoped to.

const IntId = (what: string) =>
  z
    .number({ error: `expected an integer ${what} id` })
    .int({ error: `expected an integer ${what} id` })
    .positive()
    .max(2_147_483_647);

const Name = SafeString.trim().min(1).max(200);
const Optional = (max: number) => SafeString.trim().max(max).nullable().optional();

const cappedList = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      nextCursor: z.string().nullable(),
      cap: z.number().int().optional().openapi({ description: "Present when the admin read cap applies" }),
    })
    .openapi(name);

export const IntIdParamSchema = z.object({
  id: SafeString.max(20).openapi({ param: { name: "id", in: "path" }, example: "1" }),
});

export const OrganizationSchema = z
  .object({ id: z.number().int(), name: z.string(), slug: z.string(), createdAt: IsoDateTime, updatedAt: IsoDateTime })
  .openapi("Organization");
export const OrganizationListSchema = cappedList(OrganizationSchema, "OrganizationList");
export const CreateOrganizationSchema = z
  .strictObject({
    name: Name.openapi({ example: "Acme Lending" }),
    slug: SafeString
      .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, { error: "expected lower-case letters, digits and dashes" })
      .optional()
      .openapi({ description: "Defaults to one derived from the name" }),
  })
  .openapi("CreateOrganizationRequest");
export const UpdateOrganizationSchema = z.strictObject({ name: Name }).openapi("UpdateOrganizationRequest");

export const CompanySchema = z
  .object({ id: z.number().int(), organizationId: z.number().int(), name: z.string(), createdAt: IsoDateTime, updatedAt: IsoDateTime })
  .openapi("Company");
export const CompanyListSchema = cappedList(CompanySchema, "CompanyList");
export const CreateCompanySchema = z
  .strictObject({ organizationId: IntId("organization"), name: Name.openapi({ example: "Acme Homes Finance" }) })
  .openapi("CreateCompanyRequest");
export const UpdateCompanySchema = z.strictObject({ name: Name }).openapi("UpdateCompanyRequest");

export const LocationSchema = z
  .object({
    id: z.number().int(),
    organizationId: z.number().int(),
    companyId: z.number().int(),
    name: z.string(),
    addressLine1: z.string().nullable(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    postalCode: z.string().nullable(),
    timezone: z.string(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Location");
export const LocationListSchema = cappedList(LocationSchema, "LocationList");

const Timezone = SafeString
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, { error: "expected an IANA time zone such as America/Chicago" });

const locationFields = {
  name: Name.openapi({ example: "Austin Branch" }),
  addressLine1: Optional(200),
  city: Optional(100),
  region: Optional(100),
  postalCode: Optional(20),
  timezone: Timezone.optional(),
};
export const CreateLocationSchema = z
  .strictObject({ companyId: IntId("company"), ...locationFields })
  .openapi("CreateLocationRequest");
export const UpdateLocationSchema = z
  .strictObject({ ...locationFields, name: Name.optional() })
  .refine((v) => Object.keys(v).length > 0, { error: "at least one field is required" })
  .openapi("UpdateLocationRequest");

export const ListCompaniesQuerySchema = PaginationQuerySchema.extend({
  organizationId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export const ListLocationsQuerySchema = ListCompaniesQuerySchema.extend({
  companyId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
