"use client";

import { lazy, Suspense, type ComponentProps } from "react";
import type { AttachmentUploadForm as AttachmentUploadFormComponent } from "./attachment-upload-form";

// The attachment form (its direct-upload field, hashing, progress) is a chunk of its own, so the
// signer's package page keeps its first-load scripts within budget whether or not anything was asked.
// Still rendered on the server: before the chunk arrives the form posts the file natively.
const AttachmentUploadFormLazy = lazy(() => import("./attachment-upload-form").then((m) => ({ default: m.AttachmentUploadForm })));

export function DeferredAttachmentUploadForm(props: ComponentProps<typeof AttachmentUploadFormComponent>) {
  return (
    <Suspense>
      <AttachmentUploadFormLazy {...props} />
    </Suspense>
  );
}
