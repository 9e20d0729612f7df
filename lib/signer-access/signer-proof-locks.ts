import { and, gt, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { authThrottles } from "@/db/schema";
import { iso } from "@/lib/iso";
import { signerProofRules } from "./rules";

/** Signer id → when the lock of their proof step ends (ISO), for the signers locked right now. */
export async function signerProofLocks(db: Db, signerIds: string[], now = new Date()): Promise<Map<string, string>> {
  if (signerIds.length === 0) return new Map();
  const keyOf = new Map(signerIds.flatMap((id) => signerProofRules(id).map((rule) => [rule.key, id] as const)));
  const rows = await db
    .select({ key: authThrottles.key, lockedUntil: authThrottles.lockedUntil })
    .from(authThrottles)
    .where(and(inArray(authThrottles.key, [...keyOf.keys()]), gt(authThrottles.lockedUntil, now)));
  const locks = new Map<string, string>();
  for (const row of rows) if (row.lockedUntil) locks.set(keyOf.get(row.key)!, iso(row.lockedUntil));
  return locks;
}
