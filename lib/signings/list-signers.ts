import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";

/** A package's signers in routing order, as rows: the `/v1` route serializes them with `serializeSigner`. */
export async function listSigners(db: Db, options: { principal: Principal; packageId: string }) {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const rows = await db
    .select()
    .from(packageSigners)
    .where(eq(packageSigners.packageId, signing.id))
    .orderBy(asc(packageSigners.routingOrder), asc(packageSigners.createdAt), asc(packageSigners.id));
  return rows;
}
