// The first interaction with the package page: what the pieces that nobody needs before it (deferred.tsx)
// wait for before their code is fetched. Kept in a module of its own, without those pieces, so that
// LiveRefresh (also on the done page) can start them without importing them.

const EVENTS = ["pointerdown", "touchstart", "keydown", "focusin", "click"] as const;

let interacted: Promise<void> | undefined;
let release: (() => void) | undefined;

function onInteraction() {
  startDeferredPieces();
}

/**
 * Resolves on the page's first pointer press, touch, key press, focus or click, or once
 * `startDeferredPieces` is called. On the server it is resolved at once: the pieces render there in full.
 */
export function firstInteraction(): Promise<void> {
  if (typeof window === "undefined") return Promise.resolve();
  if (!interacted) {
    interacted = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const type of EVENTS) window.addEventListener(type, onInteraction, { capture: true, passive: true });
  }
  return interacted;
}

/**
 * Fetches and hydrates the deferred pieces now. Anything that re-renders the page from the server
 * calls it first (LiveRefresh): a refresh that reaches a piece still waiting for its code waits for it.
 */
export function startDeferredPieces(): void {
  if (typeof window === "undefined") return;
  void firstInteraction();
  for (const type of EVENTS) window.removeEventListener(type, onInteraction, { capture: true });
  release?.();
}
