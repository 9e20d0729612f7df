import { serializeDocumentMetadata } from "@/lib/pdf/serialize-document-metadata";
import type { SigningDetail } from "./get-signing-detail";
import { serializeSigner } from "./serialize-signer";
import { serializeSigning } from "@/lib/packages/serialize-signing";

export type SigningDetailJson = ReturnType<typeof serializeSigningDetail>;

/** The wire form of `getSigningDetail`'s rows: the package, its signers and its documents' metadata. */
export function serializeSigningDetail(detail: SigningDetail) {
  return {
    ...serializeSigning(detail),
    // `authLockedUntil`: until when wrong codes lock the signer's proof step (ISO time), or null.
    signers: detail.signers.map((s) => ({ ...serializeSigner(s), authLockedUntil: s.authLockedUntil })),
    documents: detail.documents.map(serializeDocumentMetadata),
  };
}
