import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { comments } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getMemberDisplayName } from "@/lib/workspace/get-member-display-name";
import { publishCommentEvent } from "./comment-events";
import { getCommentsContext } from "./get-comments-context";
import { getOwnCommentOrThrow } from "./get-own-comment-or-throw";
import { resolveMentions } from "./resolve-mentions";
import { serializeComment, type CommentJson } from "./serialize-comment";

/** Edits the text of the caller's own comment; mentions are worked out again from the new text. */
export async function updateComment(
  db: Db,
  options: { principal: Principal; documentId: string; commentId: string; body: string; mentionedUserIds?: string[] },
): Promise<CommentJson> {
  const { bus, document } = await getCommentsContext(db, { ...options, write: true });
  const updated = await db.transaction(async (tx) => {
    await getOwnCommentOrThrow(tx, { ...options, documentId: document.id, verb: "edit" });
    const mentionedUserIds = await resolveMentions(tx, {
      organizationId: document.organizationId,
      body: options.body,
      userIds: options.mentionedUserIds ?? [],
    });
    const [row] = await tx
      .update(comments)
      .set({ body: options.body, mentionedUserIds, editedAt: new Date() })
      .where(eq(comments.id, options.commentId))
      .returning();
    return row!;
  });
  const comment = serializeComment({ ...updated, authorName: await getMemberDisplayName(db, { userId: options.principal.user.id, organizationId: document.organizationId }) });
  await publishCommentEvent(db, bus, { type: "updated", comment });
  return comment;
}
