import { z } from "@hono/zod-openapi";
import { roleEnum } from "@/db/schema/memberships";
import { authProviderEnum } from "@/db/schema/users";

export const ScopeSchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("global") }),
    z.object({ type: z.literal("organization"), organizationId: z.number().int() }),
    z.object({ type: z.literal("company"), organizationId: z.number().int(), companyId: z.number().int() }),
    z.object({
      type: z.literal("location"),
      organizationId: z.number().int(),
      companyId: z.number().int(),
      locationId: z.number().int(),
    }),
  ])
  .openapi("Scope");

export const RoleAssignmentSchema = z
  .object({
    id: z.string(),
    role: z.enum(roleEnum.enumValues),
    scope: ScopeSchema,
  })
  .openapi("RoleAssignment");

export const SessionSchema = z
  .object({
    user: z.object({
      id: z.string(),
      email: z.string(),
      name: z.string(),
      authProvider: z.enum(authProviderEnum.enumValues),
    }),
    roles: z.array(RoleAssignmentSchema),
    capabilities: z.array(z.string()).openapi({ example: ["signer:signings:read", "signings:write"] }),
  })
  .openapi("SigningSession");
