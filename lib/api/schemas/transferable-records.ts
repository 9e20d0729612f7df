import { z } from "@hono/zod-openapi";
import { controlActionEnum, transferableRecordStatusEnum } from "@/db/schema/transferable-records";
import { IsoDateTime, orNull, SafeString } from "./common";

const OrganizationRefSchema = z
  .object({
    id: z.number().int(),
    slug: z.string().openapi({ description: "The organization's public identifier on the service (what a sender names it by)", example: "other" }),
    name: z.string(),
  })
  .openapi("OrganizationRef");

export const RecordIdParamSchema = z.object({
  recordId: SafeString.max(100).openapi({ param: { name: "recordId", in: "path" }, example: "01935f4e-8b1c-7d2a-9f00-1a2b3c4d5e6f" }),
});

export const ControlHistoryEntrySchema = z
  .object({
    seq: z.number().int().openapi({ description: "1 for the entry made at sealing, then one more per change" }),
    action: z.enum(controlActionEnum.enumValues),
    from: orNull(OrganizationRefSchema),
    to: orNull(OrganizationRefSchema),
    controller: OrganizationRefSchema.openapi({ description: "Who holds control once this entry applies" }),
    at: IsoDateTime,
    hash: z.string().openapi({ description: "SHA-256 of the entry, chained to the one before (the first to the package's anchored audit head)" }),
  })
  .openapi("ControlHistoryEntry");

export const VaultRecordSchema = z
  .object({
    id: z.string(),
    packageId: z.string(),
    packageTitle: z.string(),
    documentId: z.string(),
    documentName: z.string(),
    status: z.enum(transferableRecordStatusEnum.enumValues).openapi({ description: "`paper_out` once converted to paper: the electronic authoritative copy is retired" }),
    authoritativeSha256: z.string().openapi({ description: "SHA-256 of the authoritative copy (the sealed PDF)" }),
    controller: OrganizationRefSchema,
    pendingTransferee: orNull(OrganizationRefSchema).openapi({ description: "The organization a pending transfer is offered to" }),
    pledgee: orNull(OrganizationRefSchema).openapi({ description: "The secured party of a pledge not yet released" }),
    establishedAt: IsoDateTime,
    paperOutAt: IsoDateTime.nullable(),
    yourRole: z.enum(["controller", "offered", "pledgee", "none"]).openapi({
      description: "What your organization is to the record; `none` in the answer to your own decline or release",
    }),
    history: z.array(ControlHistoryEntrySchema).openapi({ description: "The control log, oldest first (empty in lists)" }),
  })
  .openapi("VaultRecord");

export const VaultRecordListSchema = z.object({ data: z.array(VaultRecordSchema) }).openapi("VaultRecordList");

/** An organization's slug: what organizations are named by across `/v1` (`GET /v1/signing/manager/organizations`). */
export const OrganizationSlugSchema = SafeString.max(64).regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, { error: "expected the organization's identifier: lower-case letters, digits and dashes" });

export const OrganizationTargetFields = {
  organization: OrganizationSlugSchema.optional().openapi({
    description: "The organization on the service to offer control to, or to pledge to, by its public identifier (its slug, which its admins see on their eVault page)",
    example: "other",
  }),
  organizationId: z.number().int().positive().optional().openapi({ description: "Deprecated: the same organization by its numeric id. Give `organization` or this, not both.", example: 2 }),
  note: SafeString.max(500).optional().openapi({ description: "Recorded in the control log (a pool or sale reference)" }),
};

export const OrganizationTargetSchema = z
  .object(OrganizationTargetFields)
  .strict()
  .refine((v) => (v.organization === undefined) !== (v.organizationId === undefined), { error: "organization: name the organization (its identifier, e.g. \"other\")", path: ["organization"] })
  .openapi("OrganizationTarget");

export const ControlNoteSchema = z.object({ note: SafeString.max(500).optional() }).strict().openapi("ControlNote");

export const DocumentTransferableSchema = z
  .object({ transferable: z.boolean().openapi({ description: "Whether the document is a transferable record once sealed" }) })
  .strict()
  .openapi("DocumentTransferable");

export const DocumentTransferableResultSchema = z.object({ documentId: z.string(), transferable: z.boolean() }).openapi("DocumentTransferableResult");
