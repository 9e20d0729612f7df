import type { Comment } from "@/db/schema";
import { iso } from "@/lib/iso";

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
    editedAt: iso(c.editedAt),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
