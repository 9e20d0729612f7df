import type { SigningStatus } from "@/db/schema";
import { Conflict } from "@/lib/errors";

/**
 * Signing package states (ARCHITECTURE §5): draft → sent → in_progress → completed;
 * draft|sent|in_progress → cancelled; sent|in_progress → declined (a signer declines) or expired.
 * `in_progress` starts with the first recorded e-signature. Terminal states have no way out.
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

export const TERMINAL_SIGNING_STATUSES: readonly SigningStatus[] = ["completed", "cancelled", "declined", "expired"];

export function canTransition(from: SigningStatus, to: SigningStatus): boolean {
  return SIGNING_TRANSITIONS[from].includes(to);
}

/**
 * 409 when the move is not allowed: "already cancelled" when the package is already in the target
 * state (spec §3), otherwise a sentence naming both states.
 */
export function assertTransition(from: SigningStatus, to: SigningStatus): void {
  if (canTransition(from, to)) return;
  if (from === to) throw Conflict(`The signing package is already ${label(to)}.`);
  throw Conflict(`A ${label(from)} signing package cannot become ${label(to)}.`);
}

function label(status: SigningStatus): string {
  return status.replace("_", " ");
}
