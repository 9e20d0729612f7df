import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, signingPackages, type PackageSigner, type SigningPackage } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

export type SignerAssignment = { signing: SigningPackage; signer: PackageSigner };

export type GetSignerAssignmentOptions = {
  principal: Principal;
  packageId: string;
  /**
   * Lock the package row (`SELECT … FOR UPDATE`) for the rest of the transaction. Every signer-side
   * write takes this lock first, so writes on one package run one after the other and always lock in
   * the same order (package row → signer and request rows → audit advisory lock).
   */
  lock?: boolean;
  /** Drafts are not addressed to their signers yet: reads answer 404 unless this is set. */
  includeDrafts?: boolean;
};

/**
 * Loads a package on which the caller is a signer, with the caller's signer row. Anything else —
 * a missing package, somebody else's, a malformed id — is the same 404.
 */
export async function getSignerAssignmentOrThrow(db: Db, options: GetSignerAssignmentOptions): Promise<SignerAssignment> {
  const notFound = NotFound(`Signing package ${options.packageId.slice(0, 64)} not found.`);
  if (!isUuid(options.packageId)) throw notFound;
  const query = db.select().from(signingPackages).where(eq(signingPackages.id, options.packageId)).limit(1);
  const [signing] = options.lock ? await query.for("update") : await query;
  if (!signing || (signing.status === "draft" && !options.includeDrafts)) throw notFound;
  // A signer session (emailed link) is that one signer of that one package, whoever else exists.
  const session = options.principal.signerSession;
  if (session && session.packageId !== signing.id) throw notFound;
  const [signer] = await db
    .select()
    .from(packageSigners)
    .where(
      and(
        eq(packageSigners.packageId, signing.id),
        session ? eq(packageSigners.id, session.signerId) : eq(packageSigners.userId, options.principal.user.id),
      ),
    )
    .orderBy(asc(packageSigners.routingOrder), asc(packageSigners.id))
    .limit(1);
  if (!signer) throw notFound;
  return { signing, signer };
}
