import { asc, eq } from "drizzle-orm";
import { signerProofLocks } from "@/lib/signer-access/signer-proof-locks";
import type { Db } from "@/db/client";
import { packageSigners } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { packageDocumentMetadata } from "./list-package-documents";

export type SigningDetail = Awaited<ReturnType<typeof getSigningDetail>>;

/**
 * One package with its signers and its documents' metadata, for a manager or admin in scope. Rows
 * out (the package row with `signers` and `documents` beside its columns): the `/v1` route and the
 * pages serialize them with `serializeSigningDetail`.
 */
export async function getSigningDetail(db: Db, options: { principal: Principal; packageId: string }) {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const [signers, documents] = await Promise.all([
    db
      .select()
      .from(packageSigners)
      .where(eq(packageSigners.packageId, signing.id))
      .orderBy(asc(packageSigners.routingOrder), asc(packageSigners.createdAt), asc(packageSigners.id)),
    packageDocumentMetadata(db, signing.id),
  ]);
  const lockedUntil = await signerProofLocks(db, signers.map((s) => s.id));
  return { ...signing, signers: signers.map((s) => ({ ...s, authLockedUntil: lockedUntil.get(s.id) ?? null })), documents };
}
