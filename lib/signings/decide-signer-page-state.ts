import type { SignerSigningView } from "./build-signer-signing-view";

/**
 * The one screen a signer's package page shows, decided on the server before anything renders
 * (docs/signer-pages.md). A package that is not the caller's never gets here: it is a 404.
 */
export type SignerPageState =
  | { kind: "your_turn" }
  /** An earlier routing group has not finished; `waitingFor` names its signers who have not signed. */
  | { kind: "waiting"; waitingFor: string[] }
  /** The caller has signed everything asked of them. */
  | { kind: "signed" }
  /** The package was declined, by the caller or (`declinedBy`) by another signer. */
  | { kind: "declined"; byMe: boolean; declinedBy: string | null }
  | { kind: "cancelled" }
  | { kind: "expired" };

type StateInput = Pick<SignerSigningView, "status" | "expiresAt" | "me" | "coSigners">;

/**
 * Terminal package states win over the caller's own progress (a package cancelled after they signed
 * is shown as cancelled), except `completed`, which is their "signed" screen. "Waiting" follows the
 * rule `recordESignature` enforces: every signer of a lower routing order must have signed.
 */
export function decideSignerPageState(view: StateInput, now: Date = new Date()): SignerPageState {
  if (view.status === "cancelled") return { kind: "cancelled" };
  if (view.status === "declined" || view.me.status === "declined") {
    const byMe = view.me.status === "declined";
    return { kind: "declined", byMe, declinedBy: byMe ? null : (view.coSigners.find((s) => s.status === "declined")?.name ?? null) };
  }
  if (view.me.status === "signed" || view.status === "completed") return { kind: "signed" };
  if (view.status === "expired" || (view.expiresAt !== null && new Date(view.expiresAt).getTime() <= now.getTime())) {
    return { kind: "expired" };
  }
  const waitingFor = view.coSigners.filter((s) => s.routingOrder < view.me.routingOrder && s.status !== "signed").map((s) => s.name);
  if (waitingFor.length > 0) return { kind: "waiting", waitingFor };
  return { kind: "your_turn" };
}
