import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { eSignatures, packageDocuments, packageSigners, signatureRequests } from "@/db/schema";
import { iso } from "@/lib/iso";
import type { SignerAssignment } from "@/lib/packages/get-signer-assignment-or-throw";

export type SignerSigningView = Awaited<ReturnType<typeof buildSignerSigningView>>;

/**
 * What a signer sees of a package: its documents with the caller's own signature requests, the
 * co-signers (name, role, routing order, status — never their contact details) and the caller's
 * own signer record.
 */
export async function buildSignerSigningView(db: Db, { signing, signer }: SignerAssignment) {
  const documents = await db
    .select({
      id: packageDocuments.id,
      name: packageDocuments.name,
      contentType: packageDocuments.contentType,
      pageCount: packageDocuments.pageCount,
      sizeBytes: packageDocuments.sizeBytes,
      sha256: packageDocuments.sha256,
      position: packageDocuments.position,
      executionMode: packageDocuments.executionMode,
      executionStatus: packageDocuments.executionStatus,
    })
    .from(packageDocuments)
    .where(eq(packageDocuments.packageId, signing.id))
    .orderBy(asc(packageDocuments.position), asc(packageDocuments.id));
  const requests = await db
    .select({
      id: signatureRequests.id,
      documentId: signatureRequests.documentId,
      required: signatureRequests.required,
      status: signatureRequests.status,
      signedAt: signatureRequests.signedAt,
      eSignatureId: eSignatures.id,
    })
    .from(signatureRequests)
    .leftJoin(eSignatures, eq(eSignatures.signatureRequestId, signatureRequests.id))
    .where(and(eq(signatureRequests.packageId, signing.id), eq(signatureRequests.signerId, signer.id)))
    .orderBy(asc(signatureRequests.id));
  const coSigners = await db
    .select({
      id: packageSigners.id,
      name: packageSigners.name,
      role: packageSigners.role,
      routingOrder: packageSigners.routingOrder,
      status: packageSigners.status,
    })
    .from(packageSigners)
    .where(and(eq(packageSigners.packageId, signing.id), ne(packageSigners.id, signer.id)))
    .orderBy(asc(packageSigners.routingOrder), asc(packageSigners.id));

  return {
    id: signing.id,
    organizationId: signing.organizationId,
    title: signing.title,
    message: signing.message,
    status: signing.status,
    sentAt: iso(signing.sentAt),
    completedAt: iso(signing.completedAt),
    cancelledAt: iso(signing.cancelledAt),
    declinedAt: iso(signing.declinedAt),
    expiresAt: iso(signing.expiresAt),
    createdAt: signing.createdAt.toISOString(),
    updatedAt: signing.updatedAt.toISOString(),
    me: {
      signerId: signer.id,
      name: signer.name,
      email: signer.email,
      role: signer.role,
      routingOrder: signer.routingOrder,
      status: signer.status,
      notifiedAt: iso(signer.notifiedAt),
      viewedAt: iso(signer.viewedAt),
      signedAt: iso(signer.signedAt),
      declinedAt: iso(signer.declinedAt),
    },
    documents: documents.map((d) => ({
      ...d,
      signatureRequests: requests
        .filter((r) => r.documentId === d.id)
        .map((r) => ({ id: r.id, required: r.required, status: r.status, signedAt: iso(r.signedAt), eSignatureId: r.eSignatureId })),
    })),
    coSigners,
  };
}
