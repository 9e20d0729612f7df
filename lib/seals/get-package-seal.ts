import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, packageSeals, sealedDocuments } from "@/db/schema";

export type PackageSealView = {
  status: "pending" | "sealed" | "failed";
  attempts: number;
  /** The last failure's message while not sealed (the job keeps retrying with backoff). */
  lastError: string | null;
  sealedAt: Date | null;
  auditHeadHash: string | null;
  certificateSha256: string | null;
  /** `transferable`: a transferable record; its download is a copy marked COPY (the authoritative copy is in the controller's eVault). */
  documents: { documentId: string; name: string; sizeBytes: number; sha256: string; transferable: boolean }[];
};

/**
 * The seal of a package, or null when it has none (not completed yet). No authorization here:
 * callers reach this only after loading the package through a scope-checked function.
 */
export async function getPackageSeal(db: Db, { packageId }: { packageId: string }): Promise<PackageSealView | null> {
  const [seal] = await db
    .select({
      status: packageSeals.status,
      attempts: packageSeals.attempts,
      lastError: packageSeals.lastError,
      sealedAt: packageSeals.sealedAt,
      auditHeadHash: packageSeals.auditHeadHash,
      certificateSha256: packageSeals.certificateSha256,
    })
    .from(packageSeals)
    .where(eq(packageSeals.packageId, packageId))
    .limit(1);
  if (!seal) return null;
  const documents =
    seal.status === "sealed"
      ? await db
          .select({
            documentId: sealedDocuments.documentId,
            name: packageDocuments.name,
            sizeBytes: sealedDocuments.sizeBytes,
            sha256: sealedDocuments.sha256,
            transferable: packageDocuments.transferable,
          })
          .from(sealedDocuments)
          .innerJoin(packageDocuments, eq(packageDocuments.id, sealedDocuments.documentId))
          .where(eq(sealedDocuments.packageId, packageId))
          .orderBy(asc(packageDocuments.position), asc(packageDocuments.createdAt))
      : [];
  return { ...seal, documents };
}
