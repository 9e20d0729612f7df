import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { authThrottles } from "@/db/schema";

/** Forgets the failed attempts counted under these keys (a successful sign-in clears its account's). */
export async function clearAuthFailures(db: Db, options: { keys: string[] }): Promise<void> {
  if (options.keys.length === 0) return;
  await db.delete(authThrottles).where(inArray(authThrottles.key, options.keys));
}
