import { z } from "@hono/zod-openapi";
import { billingStatusEnum, planTierEnum } from "@/db/schema/billing";
import { roleEnum } from "@/db/schema/memberships";
import { LOCALES } from "@/lib/i18n/locales";
import { brandColorProblem } from "@/lib/branding/contrast";
import { PAID_PLAN_TIERS } from "@/lib/env";
import { CONTROL_CHARACTER_ERROR, CONTROL_FREE, IsoDateTime, SafeString } from "./common";
import { OrganizationQuerySchema } from "./organization-query";
import { PaginationQuerySchema } from "./pagination";

// The caller's workspace (/v1/workspace): memberships, organization settings and billing.

const IntId = (what: string) =>
  z
    .number({ error: `expected an integer ${what} id` })
    .int({ error: `expected an integer ${what} id` })
    .positive()
    .max(2_147_483_647);

/** The roles an organization admin gives; `admin` (the service operator) is not one of them. */
export const MemberRoleSchema = z.enum(roleEnum.enumValues).exclude(["admin"]).openapi("MemberRole");

export const MyMembershipSchema = z
  .object({
    id: z.string(),
    role: z.enum(roleEnum.enumValues),
    organization: z.object({ id: z.number().int(), name: z.string(), slug: z.string() }).nullable(),
    companyId: z.number().int().nullable(),
    locationId: z.number().int().nullable(),
  })
  .openapi("MyMembership");

export const MyMembershipListSchema = z.object({ data: z.array(MyMembershipSchema) }).openapi("MyMembershipList");

export const MembershipSchema = z
  .object({
    id: z.string(),
    // Organization memberships never hold the global admin role; the type still names all four.
    role: z.enum(roleEnum.enumValues),
    organizationId: z.number().int(),
    companyId: z.number().int().nullable(),
    locationId: z.number().int().nullable(),
    user: z.object({
      id: z.string(),
      email: z.string(),
      name: z.string(),
      pending: z.boolean().openapi({ description: "Invited and never signed in" }),
    }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Membership");

export const MembershipListSchema = z
  .object({ data: z.array(MembershipSchema), nextCursor: z.string().nullable() })
  .openapi("MembershipList");

export const MembersQuerySchema = PaginationQuerySchema.extend(OrganizationQuerySchema.shape);

export const InviteMemberSchema = z
  .strictObject({
    email: z.email().max(320).openapi({ example: "new.manager@example.com" }),
    name: SafeString.trim().min(1).max(200).optional(),
    role: MemberRoleSchema,
    organizationId: IntId("organization").optional().openapi({ description: "Required when you administer several organizations" }),
    companyId: IntId("company").optional(),
    locationId: IntId("location").optional(),
  })
  .openapi("InviteMemberRequest");

export const ChangeRoleSchema = z.strictObject({ role: MemberRoleSchema }).openapi("ChangeRoleRequest");

export const MembershipIdParamSchema = z.object({
  id: z.uuid().openapi({ param: { name: "id", in: "path" } }),
});

export const WorkspaceSettingsSchema = z
  .object({
    organizationId: z.number().int(),
    name: z.string(),
    branding: z.object({
      logoUrl: z.string().nullable(),
      brandColor: z.string().nullable(),
      displayName: z.string().nullable(),
      supportEmail: z.string().nullable(),
      supportPhone: z.string().nullable(),
      footer: z.string().nullable(),
      logo: z
        .object({ url: z.string(), contentType: z.string(), sizeBytes: z.number().int(), width: z.number().int(), height: z.number().int() })
        .nullable()
        .openapi({ description: "The uploaded logo (PUT /v1/workspace/settings/logo), served from this origin" }),
    }),
    defaultFlowId: z.string().nullable(),
    defaultLanguage: z.enum(LOCALES).openapi({ description: "Signers' pages and emails are in this language unless the signer has their own (en when never set)" }),
    reminderCadenceDays: z.number().int().nullable(),
    packageExpiryDays: z.number().int().nullable(),
    updatedAt: IsoDateTime,
  })
  .openapi("WorkspaceSettings");

export const UpdateWorkspaceSettingsSchema = z
  .strictObject({
    name: SafeString.trim().min(1).max(200).optional(),
    branding: z
      .strictObject({
        logoUrl: z
          .url({ protocol: /^https$/, error: "expected an https:// URL" })
          .max(2000)
          .regex(CONTROL_FREE, { error: CONTROL_CHARACTER_ERROR })
          .nullable()
          .optional(),
        brandColor: SafeString
          .regex(/^#[0-9a-fA-F]{6}$/, { error: "expected a #rrggbb color" })
          .transform((v) => v.toLowerCase())
          .superRefine((value, ctx) => {
            const problem = brandColorProblem(value);
            if (problem) ctx.addIssue({ code: "custom", message: problem });
          })
          .nullable()
          .optional()
          .openapi({ description: "Buttons and links on signer pages and emails; must reach 4.5:1 contrast with white (WCAG AA)" }),
        displayName: SafeString.trim().min(1).max(100).nullable().optional().openapi({ description: "The name borrowers see; the organization's name when null" }),
        supportEmail: z.email({ error: "expected an email address" }).max(254).nullable().optional(),
        supportPhone: SafeString.trim()
          .regex(/^\+?[0-9 ().-]{7,25}$/, { error: "expected a phone number (digits, spaces, + ( ) . -)" })
          .nullable()
          .optional(),
        footer: SafeString.trim().max(200).nullable().optional().openapi({ description: "A short line at the foot of signer pages and emails" }),
      })
      .optional(),
    defaultFlowId: z.uuid().nullable().optional(),
    defaultLanguage: z.enum(LOCALES).nullable().optional().openapi({ description: "en or es; null resets to en" }),
    reminderCadenceDays: z.number().int().min(1).max(90).nullable().optional(),
    packageExpiryDays: z.number().int().min(1).max(365).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { error: "expected at least one setting to change" })
  .openapi("UpdateWorkspaceSettingsRequest");

export const BillingSchema = z
  .object({
    organizationId: z.number().int(),
    status: z.enum(billingStatusEnum.enumValues),
    planTier: z.enum(planTierEnum.enumValues),
    currentPeriodEnd: IsoDateTime.nullable(),
  })
  .openapi("Billing");

export const CheckoutRequestSchema = z
  .strictObject({ tier: z.enum(PAID_PLAN_TIERS), organizationId: IntId("organization").optional() })
  .openapi("CheckoutRequest");

export const CheckoutSchema = z.object({ url: z.url() }).openapi("Checkout");

export const BillingPortalRequestSchema = z
  .strictObject({ organizationId: IntId("organization").optional() })
  .openapi("BillingPortalRequest");

export const BillingPortalSchema = z.object({ url: z.url() }).openapi("BillingPortal");
