import { asc, eq } from "drizzle-orm";
import { signerProofLocks } from "@/lib/signer-access/signer-proof-locks";
import type { Db } from "@/db/client";
import { packageDocuments, packageSigners } from "@/db/schema";
import { serializeDocumentMetadata } from "@/lib/documents/serialize-document-metadata";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSigningOrThrow } from "./get-signing-or-throw";
import { serializeSigner } from "./serialize-signer";
import { serializeSigning } from "./serialize-signing";

/** One package with its signers and its documents' metadata, for a manager or admin in scope. */
export async function getSigningDetail(db: Db, options: { principal: Principal; packageId: string }) {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const [signers, documents] = await Promise.all([
    db
      .select()
      .from(packageSigners)
      .where(eq(packageSigners.packageId, signing.id))
      .orderBy(asc(packageSigners.routingOrder), asc(packageSigners.createdAt), asc(packageSigners.id)),
    db
      .select({
        id: packageDocuments.id,
        name: packageDocuments.name,
        contentType: packageDocuments.contentType,
        sizeBytes: packageDocuments.sizeBytes,
        sha256: packageDocuments.sha256,
        pageCount: packageDocuments.pageCount,
        position: packageDocuments.position,
        createdAt: packageDocuments.createdAt,
      })
      .from(packageDocuments)
      .where(eq(packageDocuments.packageId, signing.id))
      .orderBy(asc(packageDocuments.position), asc(packageDocuments.id)),
  ]);
  const lockedUntil = await signerProofLocks(db, signers.map((s) => s.id));
  return {
    ...serializeSigning(signing),
    signers: signers.map((s) => ({ ...serializeSigner(s), authLockedUntil: lockedUntil.get(s.id) ?? null })),
    documents: documents.map(serializeDocumentMetadata),
  };
}
