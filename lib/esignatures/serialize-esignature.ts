import type { ESignature } from "@/db/schema";

export type ESignatureJson = ReturnType<typeof serializeESignature>;

/**
 * The evidence of one e-signature as the API returns it. The drawn image itself is not echoed
 * (it can be 200 KiB); `kind` and the typed text and font are.
 */
export function serializeESignature(e: ESignature) {
  return {
    id: e.id,
    signingId: e.packageId,
    documentId: e.documentId,
    signatureRequestId: e.signatureRequestId,
    signerId: e.signerId,
    authUserId: e.authUserId,
    kind: e.kind,
    typedText: e.typedText,
    typedFont: e.typedFont,
    consentGiven: e.consentGiven,
    documentSha256: e.documentSha256,
    ipAddress: e.ipAddress,
    userAgent: e.userAgent,
    idempotencyKey: e.idempotencyKey,
    createdAt: e.createdAt.toISOString(),
  };
}
