import { and, asc, eq, getTableColumns, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { comments, users } from "@/db/schema";
import { decodeCursor, toPage, type Page } from "@/lib/api/pagination";
import type { Principal } from "@/lib/auth/principal";
import { memberDisplayNameSql } from "@/lib/workspace/member-display-name-sql";
import { getCommentsContext } from "./get-comments-context";
import { serializeComment, type CommentJson } from "./serialize-comment";

/**
 * A document's comments in the order they were written; threads are rebuilt from `parentId`.
 * Authors are named as the document's organization may name them (`memberDisplayNameSql`).
 */
export async function listComments(
  db: Db,
  options: { principal: Principal; documentId: string; limit: number; cursor?: string },
): Promise<Page<CommentJson>> {
  const { document } = await getCommentsContext(db, { ...options, write: false });
  const conditions: SQL[] = [eq(comments.chattelDocumentId, document.id)];
  if (options.cursor) conditions.push(gt(comments.id, decodeCursor(options.cursor, z.tuple([z.uuid()]))[0]));
  const rows = await db
    .select({ ...getTableColumns(comments), authorName: memberDisplayNameSql(document.organizationId) })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorUserId))
    .where(and(...conditions))
    .orderBy(asc(comments.id))
    .limit(options.limit + 1);
  return toPage(rows, options.limit, (row) => [row.id], serializeComment);
}
