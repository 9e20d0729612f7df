import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { getManagedPackageSeal } from "@/lib/seals/get-managed-package-seal";
import { getSealedFile } from "@/lib/seals/get-sealed-file";
import { retryPackageSeal } from "@/lib/seals/retry-package-seal";
import { storedFileResponse } from "@/lib/api/stored-file-response";
import type { ApiEnv } from "../context";
import { jsonResponse, pickErrors } from "../schemas/common";
import { PackageSealSchema, SealedFileParamsSchema } from "../schemas/seals";
import { SigningIdParamSchema } from "../schemas/signings";
import { validationHook } from "../validation";

const fileResponses = {
  200: {
    description: "The sealed PDF (`ETag` is its SHA-256), or `application/zip` for `all`",
    content: {
      "application/pdf": { schema: z.string().openapi({ format: "binary" }) },
      "application/zip": { schema: z.string().openapi({ format: "binary" }) },
    },
  },
  302: {
    description:
      "With S3 storage configured: `Location` is a presigned GET of the file, valid for five minutes, that answers with the same " +
      "`Content-Type` and `Content-Disposition` (not for `all`, which is built on request)",
  },
  ...pickErrors(401, 403, 404, 409),
};

// GET /v1/signing/signer/signings/{id}/sealed/{file} – a sealed document, the certificate or a ZIP of all, for a signer.
const signerFileRoute = createRoute({
  method: "get",
  path: "/v1/signing/signer/signings/{id}/sealed/{file}",
  tags: ["Signer"],
  operationId: "downloadSignerSealedDocument",
  summary: "Download a sealed document, the certificate of completion, or everything as a ZIP",
  description: "409 until the completed package is sealed (shortly after the last signature).",
  request: { params: SealedFileParamsSchema },
  responses: fileResponses,
});

// GET /v1/signing/manager/signings/{id}/sealed/{file} – the same for a manager whose scope holds the package.
const managerFileRoute = createRoute({
  method: "get",
  path: "/v1/signing/manager/signings/{id}/sealed/{file}",
  tags: ["Manager signings"],
  operationId: "downloadSealedDocument",
  summary: "Download a sealed document, the certificate of completion, or everything as a ZIP",
  description: "409 until the completed package is sealed (shortly after the last signature).",
  request: { params: SealedFileParamsSchema },
  responses: fileResponses,
});

// GET /v1/signing/manager/signings/{id}/seal – the seal's status and the sealed files' hashes.
const managerSealRoute = createRoute({
  method: "get",
  path: "/v1/signing/manager/signings/{id}/seal",
  tags: ["Manager signings"],
  operationId: "getSeal",
  summary: "Read a completed package's seal: status, failure, sealed files and their SHA-256",
  request: { params: SigningIdParamSchema },
  responses: { 200: jsonResponse(PackageSealSchema, "The seal"), ...pickErrors(401, 403, 404) },
});

// POST /v1/signing/manager/signings/{id}/seal/retry – seal again after the job used up its attempts.
const managerRetryRoute = createRoute({
  method: "post",
  path: "/v1/signing/manager/signings/{id}/seal/retry",
  tags: ["Manager signings"],
  operationId: "retrySeal",
  summary: "Try sealing a completed package again",
  description:
    "For a seal that stayed `failed` after every automatic attempt. Enqueues a new seal job unless the package is sealed or a seal job is " +
    "still queued or running (then nothing changes). 202 with the seal as it is now; 409 when the package is not complete.",
  request: { params: SigningIdParamSchema },
  responses: { 202: jsonResponse(PackageSealSchema, "The seal"), ...pickErrors(401, 403, 404, 409) },
});

/** Sealed files of completed packages, for signers and managers (`/v1/signing/{signer,manager}/signings/{id}/sealed/*`). */
export const sealedFiles = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(signerFileRoute, async (c) => {
    const { id, file } = c.req.valid("param");
    return storedFileResponse(await getSealedFile(c.get("db"), { principal: c.get("principal"), packageId: id, file, as: "signer" }));
  })
  .openapi(managerFileRoute, async (c) => {
    const { id, file } = c.req.valid("param");
    return storedFileResponse(await getSealedFile(c.get("db"), { principal: c.get("principal"), packageId: id, file, as: "manager" }));
  })
  .openapi(managerSealRoute, async (c) => {
    const seal = await getManagedPackageSeal(c.get("db"), { principal: c.get("principal"), packageId: c.req.valid("param").id });
    return c.json({ ...seal, sealedAt: seal.sealedAt?.toISOString() ?? null }, 200);
  })
  .openapi(managerRetryRoute, async (c) => {
    const seal = await retryPackageSeal(c.get("db"), { principal: c.get("principal"), packageId: c.req.valid("param").id });
    return c.json({ ...seal, sealedAt: seal.sealedAt?.toISOString() ?? null }, 202);
  });
