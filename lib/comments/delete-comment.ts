import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { comments } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { publishCommentEvent } from "./comment-events";
import { getCommentsContext } from "./get-comments-context";
import { getOwnCommentOrThrow } from "./get-own-comment-or-throw";

/**
 * Deletes the caller's own comment. Replies to it go with it (foreign key cascade); one `deleted`
 * event names the comment, and listeners drop its subtree.
 */
export async function deleteComment(db: Db, options: { principal: Principal; documentId: string; commentId: string }): Promise<void> {
  const { bus, document } = await getCommentsContext(db, { ...options, write: true });
  const deleted = await db.transaction(async (tx) => {
    const comment = await getOwnCommentOrThrow(tx, { ...options, documentId: document.id, verb: "delete" });
    await tx.delete(comments).where(eq(comments.id, comment.id));
    return comment;
  });
  await publishCommentEvent(db, bus, { type: "deleted", comment: { id: deleted.id, documentId: document.id, parentId: deleted.parentId } });
}
