"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const INTERVAL_MS = 3000;
const MAX_REFRESHES = 40;

/**
 * While a message is still queued, re-renders the page from the server every few seconds (for a
 * couple of minutes at most) so "Queued" turns into "Sent" or "Failed" without a reload.
 */
export function RefreshWhileQueued({ queued }: { queued: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!queued) return;
    let count = 0;
    const timer = window.setInterval(() => {
      if (document.visibilityState !== "visible") return;
      if (++count > MAX_REFRESHES) return window.clearInterval(timer);
      router.refresh();
    }, INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [queued, router]);
  return null;
}
