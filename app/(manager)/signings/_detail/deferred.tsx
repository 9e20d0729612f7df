"use client";

import { lazy, Suspense, type ComponentProps } from "react";
import type {
  AttachmentRequestActions as AttachmentRequestActionsComponent,
  AttachmentRequestForms as AttachmentRequestFormsComponent,
  AttachmentReviewForms as AttachmentReviewFormsComponent,
} from "./attachments/review-forms";
import type { LiveUpdates as LiveUpdatesComponent } from "./live-updates";
import type { PackageActions as PackageActionsComponent } from "./package-actions";

// The manager's view is rendered by the same route as the signer's page (`/signings/<id>`), so any
// client component it imports statically would be in the signer page's first-load scripts (issue 10's
// 150 kB budget). Loaded as chunks of their own instead; still rendered on the server, so the action
// buttons and their dialogs (invoker commands, native form posts) work before the chunk arrives.
const PackageActionsLazy = lazy(() => import("./package-actions").then((m) => ({ default: m.PackageActions })));
const AttachmentReviewFormsLazy = lazy(() => import("./attachments/review-forms").then((m) => ({ default: m.AttachmentReviewForms })));
const AttachmentRequestActionsLazy = lazy(() => import("./attachments/review-forms").then((m) => ({ default: m.AttachmentRequestActions })));
const AttachmentRequestFormsLazy = lazy(() => import("./attachments/review-forms").then((m) => ({ default: m.AttachmentRequestForms })));
const LiveUpdatesLazy = lazy(() => import("./live-updates").then((m) => ({ default: m.LiveUpdates })));

export function DeferredPackageActions(props: ComponentProps<typeof PackageActionsComponent>) {
  return (
    <Suspense>
      <PackageActionsLazy {...props} />
    </Suspense>
  );
}

export function DeferredLiveUpdates(props: ComponentProps<typeof LiveUpdatesComponent>) {
  return (
    <Suspense>
      <LiveUpdatesLazy {...props} />
    </Suspense>
  );
}

export function DeferredAttachmentReviewForms(props: ComponentProps<typeof AttachmentReviewFormsComponent>) {
  return (
    <Suspense>
      <AttachmentReviewFormsLazy {...props} />
    </Suspense>
  );
}

export function DeferredAttachmentRequestForms(props: ComponentProps<typeof AttachmentRequestFormsComponent>) {
  return (
    <Suspense>
      <AttachmentRequestFormsLazy {...props} />
    </Suspense>
  );
}

export function DeferredAttachmentRequestActions(props: ComponentProps<typeof AttachmentRequestActionsComponent>) {
  return (
    <Suspense>
      <AttachmentRequestActionsLazy {...props} />
    </Suspense>
  );
}
