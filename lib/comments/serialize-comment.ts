import type { Comment } from "@/db/schema";

export type CommentJson = ReturnType<typeof serializeComment>;

export function serializeComment(c: Comment & { authorName: string }) {
  return {
    id: c.id,
    documentId: c.chattelDocumentId,
    parentId: c.parentId,
    authorUserId: c.authorUserId,
    authorName: c.authorName,
    body: c.body,
    mentionedUserIds: c.mentionedUserIds,
    editedAt: c.editedAt ? c.editedAt.toISOString() : null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
