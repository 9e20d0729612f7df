import { z } from "@hono/zod-openapi";
import { IsoDateTime } from "./common";

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    action: z.string().openapi({ example: "esignature.recorded" }),
    entityType: z.string(),
    entityId: z.string(),
    actorUserId: z.string().nullable(),
    ipAddress: z.string().nullable(),
    before: z.unknown(),
    after: z.unknown(),
    prevHash: z.string().nullable(),
    hash: z.string(),
    createdAt: IsoDateTime,
  })
  .openapi("AuditEntry");

export const AuditTrailSchema = z
  .object({
    data: z.array(AuditEntrySchema),
    nextCursor: z.string().nullable(),
    verified: z.boolean().openapi({ description: "true when the package's whole hash chain re-computes" }),
    brokenAt: z.number().int().nullable().openapi({
      description: "The first entry whose hash or link does not match; when entries anchored by the seal are missing from the end, the last entry that remains",
    }),
  })
  .openapi("AuditTrail");
