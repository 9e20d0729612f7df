import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { acceptMemberships } from "@/lib/workspace/accept-memberships";

/** Clerk sessions already recorded by this process (bounded; forgetting one only repeats an idempotent write). */
const recorded = new Set<string>();
const MAX_REMEMBERED = 10_000;

/**
 * What a Clerk sign-in does here, as a password sign-in does (`signInWithPassword`): the sign-in time
 * is recorded and the person's pending workspace invitations are accepted. Clerk signs people in on
 * its own pages, so the first request of each Clerk session (`sid`) stands for the sign-in; later
 * requests of the same session skip the writes.
 */
export async function recordClerkSignIn(db: Db, options: { userId: string; sessionId: string; now?: Date }): Promise<void> {
  if (recorded.has(options.sessionId)) return;
  const now = options.now ?? new Date();
  await db.update(users).set({ lastSignInAt: now }).where(eq(users.id, options.userId));
  await acceptMemberships(db, { userId: options.userId, now });
  if (recorded.size >= MAX_REMEMBERED) recorded.delete(recorded.values().next().value!);
  recorded.add(options.sessionId);
}
