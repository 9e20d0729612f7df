"use client";

import { lazy, Suspense, type ComponentProps } from "react";
import type { AttachmentUploadForm as AttachmentUploadFormComponent } from "./attachment-upload-form";
import type { DeclineDialog as DeclineDialogComponent } from "./decline-dialog";
import type { SignerDocuments as SignerDocumentsComponent } from "./signer-fields";
import { firstInteraction } from "./first-interaction";

// Pieces of the package page whose code is not in the page's first-load scripts (the 150 kB
// gzipped budget) but a chunk of its own.
//
// The decline dialog's chunk is fetched on the signer's first interaction with the page
// (first-interaction.ts: a press, touch, key, focus or click anywhere), not at hydration: a signer who
// reads and signs without declining pays for it only then. Until then React keeps the server's HTML of
// that Suspense boundary as it is, not hydrated, and it works natively: the decline button opens the
// native dialog (invoker command) and its form posts natively. Each piece has its own Suspense boundary,
// so the rest of the page (viewer, sign panel) hydrates without waiting for it.
const DeclineDialogLazy = lazy(() =>
  firstInteraction()
    .then(() => import("./decline-dialog"))
    .then((m) => ({ default: m.DeclineDialog })),
);
const SignerDocumentsLazy = lazy(() => import("./signer-fields").then((m) => ({ default: m.SignerDocuments })));
const AttachmentUploadFormLazy = lazy(() => import("./attachment-upload-form").then((m) => ({ default: m.AttachmentUploadForm })));

export function DeferredDeclineDialog(props: ComponentProps<typeof DeclineDialogComponent>) {
  return (
    <Suspense>
      <DeclineDialogLazy {...props} />
    </Suspense>
  );
}

/**
 * The documents with the signer's fields over the pages (only packages with fields): the overlays'
 * code is a chunk of its own, so a package without fields does not load it at all. It loads at
 * hydration: the fields are drawn over the pages as soon as they are painted.
 */
export function DeferredSignerDocuments(props: ComponentProps<typeof SignerDocumentsComponent>) {
  return (
    <Suspense>
      <SignerDocumentsLazy {...props} />
    </Suspense>
  );
}

/**
 * The form for a requested attachment (its direct-upload field: hashing, the PUT, progress): a chunk
 * of its own, loaded at hydration where something was asked. Before it arrives the server's form
 * posts the file natively.
 */
export function DeferredAttachmentUploadForm(props: ComponentProps<typeof AttachmentUploadFormComponent>) {
  return (
    <Suspense>
      <AttachmentUploadFormLazy {...props} />
    </Suspense>
  );
}
