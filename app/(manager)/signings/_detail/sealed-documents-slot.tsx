import type { SigningJson } from "@/lib/signings/serialize-signing";

/**
 * SLOT — sealed documents and the completion certificate (issue 12, the sealing helper's `lib/seals/*`).
 * Once a completed package is sealed, this section lists the sealed PDFs and the certificate with
 * their downloads. It renders nothing until sealing lands: replace the body, keep the props.
 */
export function SealedDocumentsSlot({ signingId, status }: { signingId: string; status: SigningJson["status"] }) {
  void signingId;
  void status;
  return null;
}
