import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users, type User } from "@/db/schema";
import { acceptMemberships } from "@/lib/workspace/accept-memberships";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";

export type SignInWithPasswordOptions = { email: string; password: string };

export type SignedInUser = Pick<User, "id" | "email" | "name">;

// Verified against when the email is unknown, so a miss costs the same scrypt work as a hit.
let decoyHash: Promise<string> | undefined;

/**
 * Checks an email and password against the local identity provider and records the sign-in.
 * Unknown email, wrong password, no password set and deactivated user all answer `null` alike,
 * after the same amount of hashing, so the answer does not reveal which accounts exist.
 * Signing in accepts the person's pending invitations (the invitation mail asks them to sign in):
 * from then on those organizations see their own name.
 */
export async function signInWithPassword(db: Db, options: SignInWithPasswordOptions): Promise<SignedInUser | null> {
  const email = options.email.trim().toLowerCase();
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
      isActive: users.isActive,
      authSubject: users.authSubject,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);

  const stored = user?.passwordHash ?? (await (decoyHash ??= hashPassword("decoy-password-never-matches")));
  const matches = await verifyPassword(options.password, stored);
  if (!user || !user.passwordHash || !matches || !user.isActive || !user.authSubject) return null;

  const now = new Date();
  await db.update(users).set({ lastSignInAt: now }).where(eq(users.id, user.id));
  await acceptMemberships(db, { userId: user.id, now });
  return { id: user.id, email: user.email, name: user.name };
}
