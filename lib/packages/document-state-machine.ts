import type { DocumentExecutionStatus, ExecutionMode } from "@/db/schema";
import { Conflict } from "@/lib/errors";

/**
 * Document execution states (hybrid closings), kept beside the package's state machine and moved
 * only by `transitionDocument`:
 *
 *   esign:                pending → esigned
 *   wet_sign / notarize:  pending → scan_uploaded → accepted | rejected;  rejected → scan_uploaded
 *   review_only:          pending → acknowledged
 *
 * `esigned`, `accepted` and `acknowledged` are final. Which moves a document may make also depends
 * on its mode (`MODE_TRANSITIONS`): an `esign` document is never scanned, an ink document never
 * e-signed.
 */
export const DOCUMENT_TRANSITIONS: Record<DocumentExecutionStatus, readonly DocumentExecutionStatus[]> = {
  pending: ["esigned", "scan_uploaded", "acknowledged"],
  esigned: [],
  scan_uploaded: ["accepted", "rejected"],
  rejected: ["scan_uploaded"],
  accepted: [],
  acknowledged: [],
};

/** The states each mode may pass through; a move into a state outside the mode's list is refused. */
export const MODE_STATES: Record<ExecutionMode, readonly DocumentExecutionStatus[]> = {
  esign: ["pending", "esigned"],
  wet_sign: ["pending", "scan_uploaded", "accepted", "rejected"],
  notarize: ["pending", "scan_uploaded", "accepted", "rejected"],
  review_only: ["pending", "acknowledged"],
};

/** The state in which a document of each mode is done; a package completes when all are. */
export const FINAL_STATE: Record<ExecutionMode, DocumentExecutionStatus> = {
  esign: "esigned",
  wet_sign: "accepted",
  notarize: "accepted",
  review_only: "acknowledged",
};

export const INK_MODES = ["wet_sign", "notarize"] as const satisfies readonly ExecutionMode[];

export function isInkMode(mode: ExecutionMode): boolean {
  return (INK_MODES as readonly ExecutionMode[]).includes(mode);
}

export function isDocumentDone(document: { executionMode: ExecutionMode; executionStatus: DocumentExecutionStatus }): boolean {
  return document.executionStatus === FINAL_STATE[document.executionMode];
}

export function canTransitionDocument(mode: ExecutionMode, from: DocumentExecutionStatus, to: DocumentExecutionStatus): boolean {
  return DOCUMENT_TRANSITIONS[from].includes(to) && MODE_STATES[mode].includes(to);
}

/** 409 naming the document's mode and both states when the move is not allowed. */
export function assertDocumentTransition(mode: ExecutionMode, from: DocumentExecutionStatus, to: DocumentExecutionStatus): void {
  if (canTransitionDocument(mode, from, to)) return;
  if (from === to) throw Conflict(`The document is already ${documentStatusLabel(to)}.`);
  throw Conflict(`A ${executionModeLabel(mode)} document that is ${documentStatusLabel(from)} cannot become ${documentStatusLabel(to)}.`);
}

export function documentStatusLabel(status: DocumentExecutionStatus): string {
  return status === "esigned" ? "e-signed" : status.replace("_", " ");
}

export function executionModeLabel(mode: ExecutionMode): string {
  return { esign: "e-sign", wet_sign: "wet-sign", notarize: "notarize", review_only: "review-only" }[mode];
}
