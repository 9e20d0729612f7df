import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { openCommentEventStream } from "@/lib/comments/comment-event-stream";
import { createComment } from "@/lib/comments/create-comment";
import { deleteComment } from "@/lib/comments/delete-comment";
import { listComments } from "@/lib/comments/list-comments";
import { serializeComment } from "@/lib/comments/serialize-comment";
import { updateComment } from "@/lib/comments/update-comment";
import type { ApiEnv } from "../context";
import { jsonBody, jsonResponse, pickErrors } from "../schemas/common";
import { CommentListSchema, CommentParamSchema, CommentSchema, CommentStreamHeadersSchema, CreateCommentSchema, UpdateCommentSchema } from "../schemas/comments";
import { DocumentIdParamSchema } from "../schemas/documents";
import { PaginationQuerySchema } from "../schemas/pagination";
import { serializePage } from "../serialize-page";
import { validationHook } from "../validation";

const TAGS = ["Comments"];
const PATH = "/v1/documents/{id}/comments";

// GET /v1/documents/{id}/comments – the document's comments, oldest first (threads via parentId).
const listRoute = createRoute({
  method: "get",
  path: PATH,
  tags: TAGS,
  operationId: "listDocumentComments",
  summary: "List a document's comments",
  request: { params: DocumentIdParamSchema, query: PaginationQuerySchema },
  responses: { 200: jsonResponse(CommentListSchema, "A page of comments"), ...pickErrors(400, 401, 403, 404, 503) },
});

// POST /v1/documents/{id}/comments – comment or reply; mentions by user id or @email.
const createCommentRoute = createRoute({
  method: "post",
  path: PATH,
  tags: TAGS,
  operationId: "createDocumentComment",
  summary: "Comment on a document",
  request: { params: DocumentIdParamSchema, body: jsonBody(CreateCommentSchema) },
  responses: { 201: jsonResponse(CommentSchema, "The created comment"), ...pickErrors(400, 401, 403, 404, 503) },
});


// GET /v1/documents/{id}/comments/stream – server-sent events: ready, created, updated, deleted, heartbeat.
const streamRoute = createRoute({
  method: "get",
  path: `${PATH}/stream`,
  tags: TAGS,
  operationId: "streamDocumentComments",
  summary: "Live comment events (server-sent events)",
  description:
    "`event: ready` once subscribed, then `created` / `updated` (data: the comment) and `deleted` (data: id, documentId, parentId), " +
    "and `heartbeat` every REALTIME_HEARTBEAT_MS. Each `created` / `updated` / `deleted` event has an SSE `id`. A client that reconnects with " +
    "`Last-Event-ID` (EventSource sends it by itself) first gets the events after that id from the server's log (kept 24 hours, at most 1000), " +
    "then the live ones. The stream ends after REALTIME_STREAM_MAX_MS; reconnect.",
  request: { params: DocumentIdParamSchema, headers: CommentStreamHeadersSchema },
  responses: {
    200: { description: "An event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
    ...pickErrors(400, 401, 403, 404, 503),
  },
});

// PATCH /v1/documents/{id}/comments/{commentId} – edit one's own comment.
const updateRoute = createRoute({
  method: "patch",
  path: `${PATH}/{commentId}`,
  tags: TAGS,
  operationId: "updateDocumentComment",
  summary: "Edit your comment",
  request: { params: CommentParamSchema, body: jsonBody(UpdateCommentSchema) },
  responses: { 200: jsonResponse(CommentSchema, "The edited comment"), ...pickErrors(400, 401, 403, 404, 503) },
});

// DELETE /v1/documents/{id}/comments/{commentId} – delete one's own comment with its replies.
const deleteRoute = createRoute({
  method: "delete",
  path: `${PATH}/{commentId}`,
  tags: TAGS,
  operationId: "deleteDocumentComment",
  summary: "Delete your comment",
  request: { params: CommentParamSchema },
  responses: { 204: { description: "Deleted" }, ...pickErrors(400, 401, 403, 404, 503) },
});

export const comments = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook })
  .openapi(listRoute, async (c) => {
    const page = await listComments(c.get("db"), { principal: c.get("principal"), documentId: c.req.valid("param").id, ...c.req.valid("query") });
    return c.json(serializePage(page, serializeComment), 200);
  })
  .openapi(createCommentRoute, async (c) => {
    const comment = await createComment(c.get("db"), { principal: c.get("principal"), documentId: c.req.valid("param").id, ...c.req.valid("json") });
    return c.json(comment, 201);
  })
  .openapi(streamRoute, async (c) => {
    const lastEventId = c.req.valid("header")["last-event-id"];
    const response = await openCommentEventStream(c.get("db"), {
      principal: c.get("principal"),
      documentId: c.req.valid("param").id,
      lastEventId: lastEventId === undefined ? undefined : Number(lastEventId),
      signal: c.req.raw.signal,
    });
    return response as never;
  })
  .openapi(updateRoute, async (c) => {
    const { id, commentId } = c.req.valid("param");
    const comment = await updateComment(c.get("db"), { principal: c.get("principal"), documentId: id, commentId, ...c.req.valid("json") });
    return c.json(comment, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id, commentId } = c.req.valid("param");
    await deleteComment(c.get("db"), { principal: c.get("principal"), documentId: id, commentId });
    return c.body(null, 204);
  });
