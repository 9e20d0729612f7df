import { z } from "@hono/zod-openapi";
import { sealStatusEnum } from "@/db/schema/seals";
import { IsoDateTime, SafeString } from "./common";

export const SealedFileParamsSchema = z.object({
  id: SafeString.max(100).openapi({ param: { name: "id", in: "path" }, example: "01935f4e-8b1c-7d2a-9f00-1a2b3c4d5e6f" }),
  file: SafeString.max(100).openapi({
    param: { name: "file", in: "path" },
    description: "A document id for that sealed document, `certificate` for the certificate of completion, `all` for a ZIP of everything",
    example: "all",
  }),
});

export const PackageSealSchema = z
  .object({
    status: z.enum(sealStatusEnum.enumValues).openapi({
      description: "`pending` right after completion; `failed` when the last attempt failed (it is retried with backoff)",
    }),
    attempts: z.number().int().openapi({ description: "Failed attempts so far" }),
    lastError: z.string().nullable(),
    sealedAt: IsoDateTime.nullable(),
    auditHeadHash: z.string().nullable().openapi({ description: "The audit trail's head at completion, printed on the certificate" }),
    certificateSha256: z.string().nullable(),
    documents: z.array(
      z.object({
        documentId: z.string(),
        name: z.string(),
        sizeBytes: z.number().int(),
        sha256: z.string(),
        transferable: z.boolean().openapi({ description: "A transferable record: `sha256` is its authoritative copy's; downloads of it are copies marked COPY" }),
      }),
    ),
  })
  .openapi("PackageSeal");
