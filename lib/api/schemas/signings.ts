import { z } from "@hono/zod-openapi";
import { IsoDateTime } from "./common";

export const SigningStatusSchema = z.enum(["draft", "sent", "in_progress", "completed", "cancelled", "declined", "expired"]);

export const SigningSchema = z
  .object({
    id: z.string(),
    organizationId: z.number().int(),
    companyId: z.number().int(),
    locationId: z.number().int(),
    title: z.string(),
    status: SigningStatusSchema,
    templateId: z.string().nullable(),
    flowId: z.string().nullable(),
    message: z.string().nullable(),
    createdByUserId: z.string().nullable(),
    sentAt: IsoDateTime.nullable(),
    completedAt: IsoDateTime.nullable(),
    cancelledAt: IsoDateTime.nullable(),
    cancelReason: z.string().nullable(),
    declinedAt: IsoDateTime.nullable(),
    expiresAt: IsoDateTime.nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Signing");

export const CreateSigningSchema = z
  .strictObject({
    locationId: z
      .number({ error: "expected an integer location id" })
      .int({ error: "expected an integer location id" })
      .positive()
      .max(2_147_483_647)
      .openapi({ example: 1 }),
    title: z.string().trim().min(1).max(200).optional().openapi({ example: "Retail installment contract — J. Doe" }),
    message: z.string().trim().max(2000).optional(),
  })
  .openapi("CreateSigningRequest");
