import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { BadRequest } from "@/lib/errors";

/** `@jane@example.com` in a comment body; the leading `@` must start a word. */
const EMAIL_MENTION = /(?<![\w@])@([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/g;

/**
 * The users a comment mentions: the explicit `userIds` (each must be a member of the organization,
 * otherwise 400) and every `@email` in the body that belongs to a member (other addresses are
 * plain text). In order of first appearance, without duplicates.
 */
export async function resolveMentions(
  db: Db,
  options: { organizationId: number; body: string; userIds: string[] },
): Promise<string[]> {
  const emails = [...new Set([...options.body.matchAll(EMAIL_MENTION)].map((m) => m[1]!.toLowerCase()))];
  if (options.userIds.length === 0 && emails.length === 0) return [];
  const conditions = [];
  if (options.userIds.length > 0) conditions.push(inArray(users.id, options.userIds));
  if (emails.length > 0) conditions.push(inArray(sql`lower(${users.email})`, emails));
  const members = await db
    .selectDistinct({ id: users.id, email: users.email })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(and(eq(memberships.organizationId, options.organizationId), or(...conditions)));
  const byId = new Set(members.map((m) => m.id));
  const missing = options.userIds.filter((id) => !byId.has(id));
  if (missing.length > 0) throw BadRequest(`mentionedUserIds: ${missing[0]} is not a member of this organization.`);
  const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m.id]));
  const ids = [...options.userIds, ...emails.flatMap((e) => byEmail.get(e) ?? [])];
  return [...new Set(ids)];
}
