import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { eSignatures } from "@/db/schema";
import { decodeCursor, toPage, type Page } from "@/lib/api/pagination";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { serializeESignature, type ESignatureJson } from "./serialize-esignature";

export type ListMyESignaturesOptions = { principal: Principal; limit: number; cursor?: string };

/** The e-signatures the caller recorded, newest first, keyset-paginated by id. */
export async function listMyESignatures(db: Db, options: ListMyESignaturesOptions): Promise<Page<ESignatureJson>> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read e-signatures.");
  const conditions: SQL[] = [eq(eSignatures.authUserId, options.principal.user.id)];
  if (options.cursor) {
    const [afterId] = decodeCursor(options.cursor, z.tuple([z.uuid()]));
    conditions.push(lt(eSignatures.id, afterId));
  }
  const rows = await db
    .select()
    .from(eSignatures)
    .where(and(...conditions))
    .orderBy(desc(eSignatures.id))
    .limit(options.limit + 1);
  return toPage(rows, options.limit, (r) => [r.id], serializeESignature);
}
