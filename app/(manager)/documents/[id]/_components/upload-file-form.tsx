"use client";

import { useActionState, useId, useState } from "react";
import { SubmitButton } from "@/components/ui/button";
import type { FormState } from "@/app/_lib/validated-action";
import { uploadFileAction } from "../actions";

const MAX_BYTES = 10 * 1024 * 1024;

/**
 * A plain multipart form (works before hydration). The server decides what is accepted (type from
 * the bytes, 10 MiB) and its message shows next to the field; a file over the limit is stopped here
 * first so it is not sent for nothing.
 */
export function UploadFileForm({ documentId }: { documentId: string }) {
  const [state, action] = useActionState<FormState, FormData>(uploadFileAction, { status: "idle" });
  const [tooBig, setTooBig] = useState<string>();
  const id = useId();
  const error = tooBig ?? (state.status === "error" ? (state.fieldErrors.file ?? state.message) : undefined);

  return (
    <form
      action={action}
      encType="multipart/form-data"
      onSubmit={(e) => {
        if (tooBig) e.preventDefault();
      }}
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
    >
      <input type="hidden" name="documentId" value={documentId} />
      <div className="min-w-0 flex-1 space-y-1">
        <label htmlFor={`${id}-file`} className="block text-sm font-medium text-slate-900">
          Add a file
        </label>
        <input
          id={`${id}-file`}
          name="file"
          type="file"
          required
          accept="application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            setTooBig(file && file.size > MAX_BYTES ? `${file.name} is larger than 10 MB. Choose a smaller file.` : undefined);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          className="block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:text-sm file:font-medium aria-[invalid=true]:border-red-700"
        />
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          PDF, PNG or JPEG, up to 10 MB.
        </p>
        {error ? (
          <p id={`${id}-error`} className="text-sm text-red-800">
            {error}
          </p>
        ) : null}
        <p role="status" aria-live="polite" className="text-sm text-green-800 empty:hidden">
          {state.status === "ok" && !tooBig ? state.message : ""}
        </p>
      </div>
      <SubmitButton pendingLabel="Uploading…" variant="secondary" className="sm:mb-6">
        Upload
      </SubmitButton>
    </form>
  );
}
