import { and, asc, eq, getTableColumns, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { comments, users, type Comment } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { cursorBinding, decodeKeyCursor } from "@/lib/pagination/keyset-cursor";
import { toKeysetPage, type KeysetPage } from "@/lib/pagination/keyset-page";
import { memberDisplayNameSql } from "@/lib/workspace/member-display-name-sql";
import { getCommentsContext } from "./get-comments-context";

/** A comment with its author's display name. */
export type CommentWithAuthor = Comment & { authorName: string };

/**
 * A document's comments in the order they were written; threads are rebuilt from `parentId`.
 * Authors are named as the document's organization may name them (`memberDisplayNameSql`).
 */
export async function listComments(
  db: Db,
  options: { principal: Principal; documentId: string; limit: number; cursor?: string },
): Promise<KeysetPage<CommentWithAuthor>> {
  const { document } = await getCommentsContext(db, { ...options, write: false });
  const conditions: SQL[] = [eq(comments.chattelDocumentId, document.id)];
  const binding = cursorBinding("comments", options);
  const after = decodeKeyCursor(options.cursor, z.uuid(), binding);
  if (after !== null) conditions.push(gt(comments.id, after));
  const rows = await db
    .select({ ...getTableColumns(comments), authorName: memberDisplayNameSql(document.organizationId) })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorUserId))
    .where(and(...conditions))
    .orderBy(asc(comments.id))
    .limit(options.limit + 1);
  return toKeysetPage(rows, options.limit, (row) => [row.id], binding);
}
