import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users, type User } from "@/db/schema";
import { BadRequest, Conflict } from "@/lib/errors";
import type { ClerkUser } from "./clerk-events";

export type SyncClerkUserOptions = { user: ClerkUser };

export type SyncClerkUserResult = { user: User; action: "created" | "updated" | "linked" };

/**
 * Applies a Clerk `user.created` / `user.updated` to `users` (either event may arrive first, so both
 * upsert). In order:
 * 1. A row whose auth subject is the Clerk user id gets its name and email refreshed.
 * 2. Otherwise an invited row (auth subject null) with the same email is linked to the Clerk user,
 *    but only through a verified email: an unverified address proves nothing about who owns it.
 * 3. Otherwise a new user is created.
 * A primary email already held by another row (a local user, another Clerk user, or an invited
 * user reached through an unverified address) is a Conflict; nothing is changed.
 * An unverified primary email never replaces the stored email of an existing row.
 * `is_active` is never touched: Clerk never reuses a deleted user's id, so a late `user.updated`
 * must not bring a deactivated user back.
 */
export async function syncClerkUser(db: Db, options: SyncClerkUserOptions): Promise<SyncClerkUserResult> {
  const clerk = options.user;
  // Serializes concurrent events about the same Clerk user (created and updated often arrive together).
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`identity:${clerk.id}`}))`);

  const primary = clerk.email_addresses.find((e) => e.id === clerk.primary_email_address_id);
  const email = primary?.email_address;
  const verified = primary?.verification?.status === "verified";
  const name = [clerk.first_name, clerk.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");

  const [current] = await db.select().from(users).where(eq(users.authSubject, clerk.id)).limit(1);
  if (current) {
    const nextEmail = email && verified && email !== current.email ? email : undefined;
    if (nextEmail) await assertEmailFree(db, { email: nextEmail, exceptUserId: current.id });
    const [updated] = await db
      .update(users)
      .set({ name: name || current.name, email: nextEmail ?? current.email })
      .where(eq(users.id, current.id))
      .returning();
    return { user: updated!, action: "updated" };
  }

  if (!email) throw BadRequest(`Clerk user ${clerk.id} has no primary email address.`);
  const [sameEmail] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  if (sameEmail) {
    if (sameEmail.authSubject !== null) throw Conflict("The email address is already used by another user.");
    if (!verified) throw Conflict("The email address matches an invited user but is not verified; not linked.");
    const [linked] = await db
      .update(users)
      .set({ authProvider: "clerk", authSubject: clerk.id, email, name: name || sameEmail.name })
      .where(and(eq(users.id, sameEmail.id), sql`${users.authSubject} is null`))
      .returning();
    return { user: linked!, action: "linked" };
  }

  const [created] = await db
    .insert(users)
    .values({ email, name: name || email, authProvider: "clerk", authSubject: clerk.id })
    .returning();
  return { user: created!, action: "created" };
}

async function assertEmailFree(db: Db, options: { email: string; exceptUserId: string }): Promise<void> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${options.email})`, ne(users.id, options.exceptUserId)))
    .limit(1);
  if (taken) throw Conflict("The email address is already used by another user.");
}
