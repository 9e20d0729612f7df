import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { eSignatures, type ESignature } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { cursorBinding, decodeKeyCursor } from "@/lib/pagination/keyset-cursor";
import { toKeysetPage, type KeysetPage } from "@/lib/pagination/keyset-page";

export type ListMyESignaturesOptions = { principal: Principal; limit: number; cursor?: string };

/** The e-signatures the caller recorded, newest first, keyset-paginated by id. */
export async function listMyESignatures(db: Db, options: ListMyESignaturesOptions): Promise<KeysetPage<ESignature>> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read e-signatures.");
  const conditions: SQL[] = [eq(eSignatures.authUserId, options.principal.user.id)];
  const binding = cursorBinding("my-esignatures", options);
  const afterId = decodeKeyCursor(options.cursor, z.uuid(), binding);
  if (afterId !== null) conditions.push(lt(eSignatures.id, afterId));
  const rows = await db
    .select()
    .from(eSignatures)
    .where(and(...conditions))
    .orderBy(desc(eSignatures.id))
    .limit(options.limit + 1);
  return toKeysetPage(rows, options.limit, (r) => [r.id], binding);
}
