"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** How often the open page asks the server for the package's state while the tab is visible. */
export const LIVE_POLL_MS = 5_000;

/**
 * Keeps the manager's package page current while it is open: `router.refresh()` re-renders the
 * server components (signers, status sentence, audit trail, vault deliveries) when the tab regains
 * focus and every few seconds while it is visible. There is no signing-status channel on the
 * realtime bus, so this is the fallback the browser product uses wherever live data has no push channel. Nothing refreshes while a dialog
 * is open, so a confirmation (and a half-typed reason) is never closed or reset under the person.
 */
export function LiveUpdates({ intervalMs = LIVE_POLL_MS }: { intervalMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState !== "visible" || document.querySelector("dialog[open]")) return;
      router.refresh();
    };
    window.addEventListener("focus", refresh);
    document.addEventListener("visibilitychange", refresh);
    const timer = window.setInterval(refresh, intervalMs);
    return () => {
      window.removeEventListener("focus", refresh);
      document.removeEventListener("visibilitychange", refresh);
      window.clearInterval(timer);
    };
  }, [router, intervalMs]);
  return null;
}
