import type { ExecutionMode } from "@/db/schema";

/** The 409 a signer gets for trying to e-sign a document that is not e-signed. */
export function notESignedMessage(mode: ExecutionMode): string {
  if (mode === "review_only") return "This document is only to read: confirm you received it instead of signing it.";
  if (mode === "notarize") return "This document is signed in ink before a notary at the closing table, not electronically.";
  return "This document is signed in ink at the closing table, not electronically.";
}

/** The 409 for e-signing before the lender's waiting period ends. */
export function esignNotOpenMessage(opensAt: Date): string {
  return `E-signing opens at ${opensAt.toISOString().replace(".000Z", "Z")}.`;
}
