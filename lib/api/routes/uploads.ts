import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { MAX_UPLOADED_PDF_BYTES } from "@/lib/pdf/validate-pdf-upload";
import { createUpload } from "@/lib/uploads/create-upload";
import { receiveUploadContent } from "@/lib/uploads/receive-upload-content";
import { UPLOAD_TOKEN_HEADER } from "@/lib/uploads/upload-limits";
import { verifyUpload } from "@/lib/uploads/verify-upload";
import type { ApiEnv } from "../context";
import { errorResponses, jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { CreatedUploadSchema, CreateUploadSchema, UploadIdParamSchema, UploadSchema } from "../schemas/uploads";
import { validationHook } from "../validation";

const tags = ["Uploads"];
const tooLarge = { 413: { ...errorResponses[400], description: `The file exceeds ${MAX_UPLOADED_PDF_BYTES / 1024 / 1024} MiB (or its declared size)` } };

// POST /v1/uploads – ask for a direct upload: answers where to PUT the bytes.
const createUploadRoute = createRoute({
  method: "post",
  path: "/v1/uploads",
  tags,
  operationId: "createUpload",
  summary: "Start a direct upload",
  description:
    "Declare a file (name, exact size, type, SHA-256) and get a short-lived PUT to send its bytes to: S3's own presigned URL when " +
    "object storage is configured, this service's own endpoint otherwise. Send exactly `put.headers` and the file as the body; then " +
    "attach it by `id` (`uploadId`) to a package or template document, which verifies it first (or verify it with " +
    "`POST /v1/uploads/{id}/complete`). The bytes never pass through a /v1 JSON body, so files up to 100 MiB work on hosts that cap " +
    "request bodies (4.5 MB on Vercel). Limits: 100 MiB per PDF, 500 pages per document. The PUT is valid 15 minutes; an upload not " +
    "attached within 24 hours expires. Only the user who created an upload can use it.",
  request: { body: jsonBody(CreateUploadSchema) },
  responses: { 201: jsonResponse(CreatedUploadSchema, "The upload and where to PUT its bytes"), ...pickErrors(400, 401, 403), ...tooLarge },
});

// PUT /v1/uploads/{id}/content – the bytes of a direct upload (embedded storage; token, not Bearer).
const putContentRoute = createRoute({
  method: "put",
  path: "/v1/uploads/{id}/content",
  tags,
  operationId: "putUploadContent",
  summary: "Send a direct upload's bytes",
  description:
    "Only as named in an upload's `put` (when object storage is not configured): authenticated by the single-use " +
    `\`${UPLOAD_TOKEN_HEADER}\` header it gives, not by a Bearer token. The body must have the declared type, size and SHA-256.`,
  security: [],
  request: {
    params: UploadIdParamSchema,
    body: { required: true, content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
  },
  responses: { 204: { description: "Received and stored" }, ...pickErrors(400, 401, 409), ...tooLarge },
});

// POST /v1/uploads/{id}/complete – verify what arrived (size, SHA-256, type; a readable, unencrypted PDF within the page limit).
const completeRoute = createRoute({
  method: "post",
  path: "/v1/uploads/{id}/complete",
  tags,
  operationId: "completeUpload",
  summary: "Verify a direct upload",
  description:
    "Checks what arrived against what was declared (size, SHA-256, type) and that the PDF opens, is not encrypted and has at most 500 " +
    "pages. 400 names what is wrong (the client may PUT again while the URL is valid); 409 when nothing has arrived yet or the " +
    "upload expired. Attaching an upload verifies it too, so this call is optional.",
  request: { params: UploadIdParamSchema },
  responses: { 200: jsonResponse(UploadSchema, "The verified upload"), ...pickErrors(400, 401, 403, 404, 409), ...tooLarge },
});

export const uploadRoutes = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(createUploadRoute, async (c) => {
    const body = c.req.valid("json");
    const created = await createUpload(c.get("db"), { principal: c.get("principal"), name: body.name, sizeBytes: body.size, contentType: body.contentType, sha256: body.sha256 });
    return c.json(created, 201);
  })
  .openapi(putContentRoute, async (c) => {
    const { id } = c.req.valid("param");
    await receiveUploadContent(c.get("db"), {
      uploadId: id,
      token: c.req.header(UPLOAD_TOKEN_HEADER),
      contentType: c.req.header("content-type"),
      contentLength: c.req.header("content-length"),
      body: c.req.raw.body,
    });
    return c.body(null, 204);
  })
  .openapi(completeRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await verifyUpload(c.get("db"), { principal: c.get("principal"), uploadId: id }), 200);
  });
