import { z } from "@hono/zod-openapi";
import { IsoDateTime, SafeString } from "./common";
import { DocumentIdParamSchema } from "./documents";

// Comments on chattel documents (/v1/documents/{id}/comments).

export const CommentParamSchema = DocumentIdParamSchema.extend({
  commentId: z.uuid().openapi({ param: { name: "commentId", in: "path" } }),
});

export const CommentSchema = z
  .object({
    id: z.string(),
    documentId: z.string(),
    parentId: z.string().nullable(),
    authorUserId: z.string(),
    authorName: z.string(),
    body: z.string(),
    mentionedUserIds: z.array(z.string()),
    editedAt: IsoDateTime.nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .openapi("Comment");

export const CommentListSchema = z
  .object({ data: z.array(CommentSchema), nextCursor: z.string().nullable() })
  .openapi("CommentList");

const Body = SafeString.trim().min(1).max(10_000).openapi({ example: "Title received — @owner@demo.local please review." });
const Mentions = z
  .array(z.uuid())
  .max(50)
  .optional()
  .openapi({ description: "User ids to mention, in addition to `@email` mentions in the body" });

export const CreateCommentSchema = z
  .strictObject({ body: Body, parentId: z.uuid().optional(), mentionedUserIds: Mentions })
  .openapi("CreateCommentRequest");

export const UpdateCommentSchema = z.strictObject({ body: Body, mentionedUserIds: Mentions }).openapi("UpdateCommentRequest");

/** The stream's `Last-Event-ID` header: resume after the event with that id. */
export const CommentStreamHeadersSchema = z.object({
  "last-event-id": z
    .string()
    .regex(/^\d{1,15}$/, "Last-Event-ID: expected the id of an event this stream sent (digits).")
    .optional()
    .openapi({ description: "The `id` of the last event received: the events after it are sent first (resume after a reconnection).", example: "1042" }),
});
