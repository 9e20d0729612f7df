"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** How often a closing page with a scan being read asks the server how far it is. */
export const SCAN_PROGRESS_POLL_MS = 2_000;

/**
 * Rendered only while a scan of the package is being read: re-renders the page's server components
 * every two seconds while the tab is visible, so the pages-read count moves and the report appears
 * when the scan is done (then this is no longer rendered and the polling stops). Without JavaScript
 * the progress shows with a Refresh link.
 */
export function ScanProgressRefresh() {
  const router = useRouter();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && !document.querySelector("dialog[open]")) router.refresh();
    }, SCAN_PROGRESS_POLL_MS);
    return () => window.clearInterval(timer);
  }, [router]);
  return null;
}
