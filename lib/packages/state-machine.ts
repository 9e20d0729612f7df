import type { SigningStatus } from "@/db/schema";
import { Conflict, type ErrorReason } from "@/lib/errors";

/**
 * Signing package states: draft → sent → in_progress → completed;
 * draft|sent|in_progress → cancelled; sent|in_progress → declined (a signer declines) or expired.
 * `in_progress` starts with the first recorded e-signature. Terminal states have no way out.
 * Only `transitionSigning` moves a package between them.
 */
export const SIGNING_TRANSITIONS: Record<SigningStatus, readonly SigningStatus[]> = {
  draft: ["sent", "cancelled"],
  sent: ["in_progress", "completed", "cancelled", "declined", "expired"],
  in_progress: ["completed", "cancelled", "declined", "expired"],
  completed: [],
  cancelled: [],
  declined: [],
  expired: [],
};

/** The states in which signers can sign (and a deadline can expire the package). */
export const OPEN_SIGNING_STATUSES = ["sent", "in_progress"] as const satisfies readonly SigningStatus[];

export function isOpenSigningStatus(status: SigningStatus): boolean {
  return (OPEN_SIGNING_STATUSES as readonly SigningStatus[]).includes(status);
}

export function canTransition(from: SigningStatus, to: SigningStatus): boolean {
  return SIGNING_TRANSITIONS[from].includes(to);
}

/**
 * 409 when the move is not allowed: "already cancelled" when the package is already in the target
 * state (the API's documented answer to a repeated cancel), otherwise a sentence naming both states.
 * `reason` goes on the 409 for a caller whose form branches on it; from a final state it is `package_closed`.
 */
export function assertTransition(from: SigningStatus, to: SigningStatus, reason?: ErrorReason): void {
  if (canTransition(from, to)) return;
  reason ??= SIGNING_TRANSITIONS[from].length === 0 ? "package_closed" : undefined;
  if (from === to) throw Conflict(`The signing package is already ${signingStatusLabel(to)}.`, reason);
  throw Conflict(`A ${signingStatusLabel(from)} signing package cannot become ${signingStatusLabel(to)}.`, reason);
}

export function signingStatusLabel(status: SigningStatus): string {
  return status.replace("_", " ");
}
