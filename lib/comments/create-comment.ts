import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { comments } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { BadRequest } from "@/lib/errors";
import { getMemberDisplayName } from "@/lib/workspace/get-member-display-name";
import { publishCommentEvent } from "./comment-events";
import { getCommentsContext } from "./get-comments-context";
import { resolveMentions } from "./resolve-mentions";
import { serializeComment, type CommentJson } from "./serialize-comment";

export type CreateCommentOptions = {
  principal: Principal;
  documentId: string;
  body: string;
  parentId?: string;
  mentionedUserIds?: string[];
};

/** Adds a comment (or a reply, with `parentId`) to a document and announces it on the real-time bus. */
export async function createComment(db: Db, options: CreateCommentOptions): Promise<CommentJson> {
  const { bus, document } = await getCommentsContext(db, { ...options, write: true });
  const created = await db.transaction(async (tx) => {
    if (options.parentId) {
      // Locked so a concurrent delete of the parent cannot leave the reply dangling.
      const [parent] = await tx
        .select({ id: comments.id })
        .from(comments)
        .where(and(eq(comments.id, options.parentId), eq(comments.chattelDocumentId, document.id)))
        .limit(1)
        .for("share");
      if (!parent) throw BadRequest(`parentId: comment ${options.parentId} is not on this document.`);
    }
    const mentionedUserIds = await resolveMentions(tx, {
      organizationId: document.organizationId,
      body: options.body,
      userIds: options.mentionedUserIds ?? [],
    });
    const [row] = await tx
      .insert(comments)
      .values({
        chattelDocumentId: document.id,
        parentId: options.parentId ?? null,
        authorUserId: options.principal.user.id,
        body: options.body,
        mentionedUserIds,
      })
      .returning();
    return row!;
  });
  const comment = serializeComment({ ...created, authorName: await getMemberDisplayName(db, { userId: options.principal.user.id, organizationId: document.organizationId }) });
  await publishCommentEvent(db, bus, { type: "created", comment });
  return comment;
}
