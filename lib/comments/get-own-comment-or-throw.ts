import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { comments, type Comment } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { Forbidden, NotFound } from "@/lib/errors";

/** A comment on the document (404 otherwise) written by the caller (403 otherwise). */
export async function getOwnCommentOrThrow(
  db: Db,
  options: { principal: Principal; documentId: string; commentId: string; verb: "edit" | "delete" },
): Promise<Comment> {
  const [comment] = await db
    .select()
    .from(comments)
    .where(and(eq(comments.id, options.commentId), eq(comments.chattelDocumentId, options.documentId)))
    .limit(1)
    .for("update");
  if (!comment) throw NotFound(`Comment ${options.commentId} not found.`);
  if (comment.authorUserId !== options.principal.user.id) throw Forbidden(`You can only ${options.verb} your own comments.`);
  return comment;
}
