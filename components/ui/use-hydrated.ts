import { useSyncExternalStore } from "react";

const subscribeNothing = () => () => {};

/**
 * False in the server's HTML and while the page hydrates, true once the component's code runs in the
 * browser: for controls that only work with JavaScript (render them disabled or hidden until then, so a
 * tap before hydration is not lost) and for hints that only make sense with it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribeNothing, () => true, () => false);
}
