import { z } from "@hono/zod-openapi";

/** `?organizationId=` for organization-level operations (outreach templates, workspace). */
export const OrganizationQuerySchema = z.object({
  organizationId: z.coerce
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .optional()
    .openapi({ description: "Required when the caller belongs to several organizations" }),
});
