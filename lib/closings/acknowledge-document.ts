import type { Db } from "@/db/client";
import type { PackageDocument, SigningPackage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";
import { completePackageIfDone } from "@/lib/package-lifecycle/complete-package-if-done";
import { transitionDocument } from "@/lib/package-lifecycle/transition-document";
import { getPackageDocumentOrThrow } from "./get-package-document-or-throw";

export type AcknowledgeDocumentOptions = {
  principal: Principal;
  packageId: string;
  documentId: string;
  ipAddress?: string | null;
};

/**
 * A signer confirms receipt of a `review_only` document: `pending → acknowledged`, with the signer
 * in the audit entry; the package completes if that was the last open document. Acknowledging again
 * returns the document unchanged.
 */
export async function acknowledgeDocument(
  db: Db,
  options: AcknowledgeDocumentOptions,
): Promise<{ document: PackageDocument; signing: SigningPackage; created: boolean }> {
  requireCapability(options.principal, "signer:esignatures:write", "You do not have permission to acknowledge documents.");
  return db.transaction(async (tx) => {
    const { signing, signer } = await getSignerAssignmentOrThrow(tx, { ...options, lock: true });
    const document = await getPackageDocumentOrThrow(tx, signing.id, options.documentId);
    if (document.executionMode !== "review_only") throw Conflict("Only a review-only document is acknowledged; this one is signed.");
    if (document.executionStatus === "acknowledged") return { document, signing, created: false };
    if (!isOpenSigningStatus(signing.status)) {
      throw Conflict(`This signing package is ${signingStatusLabel(signing.status)}; it can no longer be acknowledged.`);
    }
    const actor = { actorUserId: options.principal.user.id, ipAddress: options.ipAddress };
    const after = await transitionDocument(tx, document, "acknowledged", {
      organizationId: signing.organizationId,
      ...actor,
      details: { signerId: signer.id },
    });
    const result = await completePackageIfDone(tx, signing, actor);
    return { document: after, signing: result.signing, created: true };
  });
}
