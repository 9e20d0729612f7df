import { z } from "@hono/zod-openapi";
import { signerRoleEnum, signerStatusEnum } from "@/db/schema/package-signers";
import { SIGNER_AUTH_METHODS, SIGNER_PROOF_METHODS, type SignerProofMethod } from "@/db/schema/signer-auth-method";
import { LOCALES } from "@/lib/i18n/locales";
import { signerProofGaps } from "@/lib/signer-access/signer-proof-gaps";
import { AttachmentRequestInputListSchema } from "./attachments";
import { IsoDateTime, orNull, SafeString } from "./common";

export const SignerRoleSchema = z.enum(signerRoleEnum.enumValues);

export const SignerAuthMethodSchema = z.enum(SIGNER_PROOF_METHODS).openapi("SignerAuthMethod", {
  description:
    "How the signer proves who they are after opening the emailed link: link (the link alone), email_code (a 6-digit code mailed to them; the default), " +
    "access_code (a code you give them out of band), sms_code (a 6-digit code texted to `phone`), account (signing in)",
});

/** How a signer's proof passed: one of the methods above, or `in_person` (a host checked their identification at the desk). */
export const SignerAuthPassedMethodSchema = z.enum(SIGNER_AUTH_METHODS).openapi("SignerAuthPassedMethod", {
  description: "The method that passed: one of SignerAuthMethod, or in_person (signed at the lender's desk; the host checked the signer's identification)",
});

export const SignerLanguageSchema = z.enum(LOCALES).openapi("SignerLanguage", {
  description: "The language of the signer's pages and emails: en (English) or es (Spanish)",
});

export const SignerSchema = z
  .object({
    id: z.string(),
    signingId: z.string(),
    userId: z.string().nullable(),
    name: z.string(),
    email: z.string(),
    role: SignerRoleSchema,
    routingOrder: z.number().int(),
    status: z.enum(signerStatusEnum.enumValues),
    notifiedAt: IsoDateTime.nullable(),
    viewedAt: IsoDateTime.nullable(),
    signedAt: IsoDateTime.nullable(),
    declinedAt: IsoDateTime.nullable(),
    declineReason: z.string().nullable(),
    authMethod: orNull(SignerAuthMethodSchema).openapi({ description: "This signer's proof of identity; null follows the package's signerAuthMethod" }),
    hasAccessCode: z.boolean().openapi({ description: "Whether an access code is set (the code itself is never returned)" }),
    phone: z.string().nullable(),
    smsConsentAt: IsoDateTime.nullable().openapi({ description: "When a manager attested the signer's consent to texts at `phone`; null: no texts" }),
    smsConsentByUserId: z.string().nullable().openapi({ description: "The user who attested the consent to texts" }),
    authPassedAt: IsoDateTime.nullable(),
    authPassedMethod: orNull(SignerAuthPassedMethodSchema),
    authFailures: z.number().int().openapi({ description: "Wrong codes entered" }),
    consentedAt: IsoDateTime.nullable(),
    language: orNull(SignerLanguageSchema).openapi({ description: "The signer's language; null follows the workspace's defaultLanguage (English when unset)" }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Signer");

const RoutingOrder = z.number().int({ error: "expected an integer routing order" }).min(1).max(100);

const signerFields = {
  name: SafeString.trim().min(1).max(200).openapi({ example: "Jordan Doe" }),
  email: z.email({ error: "expected an email address" }).max(320).openapi({ example: "jordan@example.com" }),
};

/** Proof-of-identity fields of a signer; `accessCode` is write-only (stored hashed, never returned). */
export const signerAccessFields = {
  authMethod: SignerAuthMethodSchema.optional(),
  accessCode: SafeString.trim()
    .min(4, { error: "an access code has at least 4 characters" })
    .max(64)
    .optional()
    .openapi({ description: "Write-only. Required with authMethod access_code; tell it to the signer yourself (by phone, in person)" }),
  phone: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, { error: "expected a phone number in E.164 form, e.g. +15125550123" })
    .optional()
    .openapi({ description: "E.164 mobile number; required with authMethod sms_code and with smsConsent", example: "+15125550123" }),
  smsConsent: z
    .boolean({ error: "expected true or false" })
    .optional()
    .openapi({
      description:
        "You attest that the signer agreed to receive text messages at `phone`: invitations, \"your turn\" and reminders then also go by text. " +
        "Stored with who attested and when (smsConsentAt); the signer can stop texts by replying STOP",
    }),
};

/**
 * access_code needs the code, sms_code needs the phone (`signerProofGaps`, the one rule), and a consent
 * to texts needs the phone. A signer that follows the package's method is checked by the package's
 * schema, which knows that method.
 */
export function refineSignerAccess(
  signer: { authMethod?: SignerProofMethod | null; accessCode?: string; phone?: string | null; smsConsent?: boolean },
  ctx: z.RefinementCtx,
  path: (string | number)[] = [],
) {
  if (signer.smsConsent && !signer.phone) ctx.addIssue({ code: "custom", path: [...path, "phone"], message: "required with smsConsent" });
  if (!signer.authMethod) return;
  for (const gap of signerProofGaps(signer.authMethod, [{ name: "", authMethod: signer.authMethod, hasAccessCode: Boolean(signer.accessCode), hasPhone: Boolean(signer.phone) }])) {
    ctx.addIssue({ code: "custom", path: [...path, gap.field], message: gap.message });
  }
}

export const CreateSignerSchema = z
  .strictObject({
    ...signerFields,
    role: SignerRoleSchema.default("signer"),
    routingOrder: RoutingOrder.default(1).openapi({ description: "Signers with the same number sign in parallel" }),
    ...signerAccessFields,
    language: orNull(SignerLanguageSchema).optional().openapi({ description: "Default (null): the workspace's defaultLanguage" }),
  })
  .superRefine((signer, ctx) => refineSignerAccess(signer, ctx))
  .openapi("CreateSignerRequest");

/** The fields of a signer given with a new package (also the package form's signer rows). */
export const newPackageSignerFields = {
  ...signerFields,
  role: SignerRoleSchema.optional().openapi({ description: "Default: the template role's, else signer" }),
  routingOrder: RoutingOrder.optional().openapi({ description: "Default: the template role's, else 1" }),
  templateRole: SafeString.trim().min(1).max(64).optional().openapi({
    description: "Key of a template role; its role, routing order and authMethod apply unless given here",
  }),
  ...signerAccessFields,
  language: orNull(SignerLanguageSchema).optional().openapi({ description: "Default (null): the workspace's defaultLanguage" }),
  attachments: AttachmentRequestInputListSchema.optional().openapi({
    description: "Documents asked of this signer (at most 20): a required one must be accepted before the package completes",
  }),
};

/** A signer given with a new package; role and routing order may come from a template role. */
export const NewPackageSignerSchema = z
  .strictObject(newPackageSignerFields)
  .superRefine((signer, ctx) => refineSignerAccess(signer, ctx))
  .openapi("NewPackageSigner");

export const UpdateSignerSchema = z
  .strictObject({
    name: SafeString.trim().min(1).max(200).optional(),
    email: z.email({ error: "expected an email address" }).max(320).optional(),
    role: SignerRoleSchema.optional(),
    routingOrder: RoutingOrder.optional(),
    authMethod: orNull(SignerAuthMethodSchema).optional().openapi({ description: "null: follow the package's signerAuthMethod" }),
    accessCode: signerAccessFields.accessCode.openapi({ description: "Write-only. Replaces the signer's access code" }),
    phone: signerAccessFields.phone.unwrap().nullable().optional().openapi({
      description: "E.164 mobile number (sms_code, texts); null removes it. A new number clears the consent to texts unless smsConsent is given again",
      example: "+15125550123",
    }),
    smsConsent: signerAccessFields.smsConsent,
    language: orNull(SignerLanguageSchema).optional().openapi({ description: "null: follow the workspace's defaultLanguage" }),
  })
  .refine((v) => Object.keys(v).length > 0, { error: "at least one field is required" })
  .openapi("UpdateSignerRequest");

export const SignerListSchema = z.object({ data: z.array(SignerSchema) }).openapi("SignerList");

export const SignerParamsSchema = z.object({
  id: SafeString.max(100).openapi({ param: { name: "id", in: "path" } }),
  signerId: SafeString.max(100).openapi({ param: { name: "signerId", in: "path" } }),
});
