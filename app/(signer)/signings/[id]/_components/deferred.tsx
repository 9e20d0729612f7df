"use client";

import { lazy, Suspense, type ComponentProps } from "react";
import type { DeclineDialog as DeclineDialogComponent } from "./decline-dialog";
import type { LiveRefresh as LiveRefreshComponent } from "./live-refresh";
import type { SignerDocuments as SignerDocumentsComponent } from "./signer-fields";

// Pieces of the package page that nobody needs in the first second: their code is not in the page's
// first-load scripts (the 150 kB gzipped budget) but a chunk of its own, fetched when React
// hydrates them. Both are still rendered on the server: before that chunk arrives the decline button
// opens the native dialog (invoker command) and its form posts natively. Each has its own Suspense
// boundary, so the rest of the page (viewer, sign panel) hydrates without waiting for them.
const DeclineDialogLazy = lazy(() => import("./decline-dialog").then((m) => ({ default: m.DeclineDialog })));
const SignerDocumentsLazy = lazy(() => import("./signer-fields").then((m) => ({ default: m.SignerDocuments })));
const LiveRefreshLazy = lazy(() => import("./live-refresh").then((m) => ({ default: m.LiveRefresh })));

export function DeferredDeclineDialog(props: ComponentProps<typeof DeclineDialogComponent>) {
  return (
    <Suspense>
      <DeclineDialogLazy {...props} />
    </Suspense>
  );
}

export function DeferredLiveRefresh(props: ComponentProps<typeof LiveRefreshComponent>) {
  return (
    <Suspense>
      <LiveRefreshLazy {...props} />
    </Suspense>
  );
}

/**
 * The documents with the signer's fields over the pages (only packages with fields): the overlays'
 * code is a chunk of its own, so a package without fields does not load it at all.
 */
export function DeferredSignerDocuments(props: ComponentProps<typeof SignerDocumentsComponent>) {
  return (
    <Suspense>
      <SignerDocumentsLazy {...props} />
    </Suspense>
  );
}
