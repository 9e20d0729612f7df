"use client";

import { useActionState, useEffect, useId, useRef } from "react";
import { SubmitButton } from "@/components/ui/button";
import type { FormState } from "@/app/_lib/validated-action";
import { useHydrated } from "@/components/ui/use-hydrated";
import { DirectUploadField } from "../../../_shared/uploads/direct-upload-field";
import { uploadFileAction } from "../actions";

/**
 * A form posting to a server action (it works before hydration, with the file itself, up to 10 MiB).
 * Once hydrated, the chosen file goes straight to storage with a progress bar (the direct-upload flow
 * of `POST /v1/uploads`) and the form posts only its upload id; both end in `uploadDocumentFile`, so
 * the server decides alike (type from the bytes, 10 MiB) and its message shows next to the field.
 */
export function UploadFileForm({ documentId }: { documentId: string }) {
  const [state, action] = useActionState<FormState, FormData>(uploadFileAction, { status: "idle" });
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const id = useId();
  // A file added: the form starts over for the next one.
  useEffect(() => {
    if (state.status === "ok") form.current?.reset();
  }, [state]);
  const error = state.status === "error" ? (state.fieldErrors.file ?? state.fieldErrors.uploadId ?? state.message) : undefined;

  return (
    <form ref={form} action={action} encType="multipart/form-data" className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <input type="hidden" name="documentId" value={documentId} />
      <div className="min-w-0 flex-1 space-y-1">
        <DirectUploadField
          id={`${id}-file`}
          name="file"
          label="Add a file"
          required
          accept="application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg"
          hint={hydrated ? "PDF, PNG or JPEG, up to 10 MB; it uploads as soon as you choose it." : "PDF, PNG or JPEG, up to 10 MB."}
          error={error}
        />
        <p role="status" aria-live="polite" className="text-sm text-green-800 empty:hidden">
          {state.status === "ok" ? state.message : ""}
        </p>
      </div>
      <SubmitButton pendingLabel="Adding…" variant="secondary" className="sm:mb-6">
        Upload
      </SubmitButton>
    </form>
  );
}
