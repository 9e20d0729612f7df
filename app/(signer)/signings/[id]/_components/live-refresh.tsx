"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { startDeferredPieces } from "./first-interaction";

/**
 * Keeps a server-rendered page current without a reload: re-renders it from the server when the
 * tab regains focus and, with `intervalMs`, every so often while the tab is visible. `router.refresh`
 * keeps client state, so an open dialog or a half-typed reason stays as it is. Its code is a few
 * hundred bytes: it is part of the page's scripts, not a lazy chunk. Before a refresh it starts the
 * package page's deferred pieces (deferred.tsx), so the new page from the server can hydrate them.
 */
export function LiveRefresh({ intervalMs }: { intervalMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState !== "visible") return;
      startDeferredPieces();
      router.refresh();
    };
    window.addEventListener("focus", refresh);
    document.addEventListener("visibilitychange", refresh);
    const timer = intervalMs ? window.setInterval(refresh, intervalMs) : undefined;
    return () => {
      window.removeEventListener("focus", refresh);
      document.removeEventListener("visibilitychange", refresh);
      if (timer) window.clearInterval(timer);
    };
  }, [router, intervalMs]);
  return null;
}
