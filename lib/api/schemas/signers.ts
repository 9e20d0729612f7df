import { z } from "@hono/zod-openapi";
import { IsoDateTime, SafeString } from "./common";

export const SignerRoleSchema = z.enum(["signer", "co_signer"]);

export const SignerSchema = z
  .object({
    id: z.string(),
    signingId: z.string(),
    userId: z.string().nullable(),
    name: z.string(),
    email: z.string(),
    role: SignerRoleSchema,
    routingOrder: z.number().int(),
    status: z.enum(["pending", "notified", "viewed", "signed", "declined"]),
    notifiedAt: IsoDateTime.nullable(),
    viewedAt: IsoDateTime.nullable(),
    signedAt: IsoDateTime.nullable(),
    declinedAt: IsoDateTime.nullable(),
    declineReason: z.string().nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Signer");

const RoutingOrder = z.number().int({ error: "expected an integer routing order" }).min(1).max(100);

const signerFields = {
  name: SafeString.trim().min(1).max(200).openapi({ example: "Jordan Doe" }),
  email: z.email({ error: "expected an email address" }).max(320).openapi({ example: "jordan@example.com" }),
};

export const CreateSignerSchema = z
  .strictObject({
    ...signerFields,
    role: SignerRoleSchema.default("signer"),
    routingOrder: RoutingOrder.default(1).openapi({ description: "Signers with the same number sign in parallel" }),
  })
  .openapi("CreateSignerRequest");

/** A signer given with a new package; role and routing order may come from a template role. */
export const NewPackageSignerSchema = z
  .strictObject({
    ...signerFields,
    role: SignerRoleSchema.optional().openapi({ description: "Default: the template role's, else signer" }),
    routingOrder: RoutingOrder.optional().openapi({ description: "Default: the template role's, else 1" }),
    templateRole: SafeString.trim().min(1).max(64).optional().openapi({
      description: "Key of a template role; its role and routing order apply unless given here",
    }),
  })
  .openapi("NewPackageSigner");

export const UpdateSignerSchema = z
  .strictObject({
    name: SafeString.trim().min(1).max(200).optional(),
    email: z.email({ error: "expected an email address" }).max(320).optional(),
    role: SignerRoleSchema.optional(),
    routingOrder: RoutingOrder.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: "at least one field is required" })
  .openapi("UpdateSignerRequest");

export const SignerListSchema = z.object({ data: z.array(SignerSchema) }).openapi("SignerList");

export const SignerParamsSchema = z.object({
  id: SafeString.max(100).openapi({ param: { name: "id", in: "path" } }),
  signerId: SafeString.max(100).openapi({ param: { name: "signerId", in: "path" } }),
});
