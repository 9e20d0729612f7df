import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, users } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getCommentsContext } from "./get-comments-context";

export type MentionableMember = { userId: string; name: string; email: string };

/**
 * The people a comment on the document can mention by `@email` and who can read it: accepted
 * managers and organization admins of the document's organization, by name. Same checks as
 * writing a comment (comments:write, the real-time service, the document in scope).
 */
export async function listMentionableMembers(db: Db, options: { principal: Principal; documentId: string }): Promise<MentionableMember[]> {
  const { document } = await getCommentsContext(db, { ...options, write: true });
  const rows = await db
    .selectDistinct({ userId: users.id, name: users.name, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, document.organizationId),
        inArray(memberships.role, ["manager", "org_admin"]),
        isNotNull(memberships.acceptedAt),
        eq(users.isActive, true),
      ),
    )
    .orderBy(asc(users.name), asc(users.email));
  return rows.map((row) => ({ ...row, name: row.name || row.email }));
}
