"use client";

import { useRouter } from "next/navigation";
import { useActionState, useId, useRef, useState, type FormEvent } from "react";
import { SubmitButton } from "@/components/ui/button";
import type { FormState } from "@/app/_lib/validated-action";
import { uploadFileAction } from "../actions";

const MAX_BYTES = 10 * 1024 * 1024;

type Upload = { name: string; percent: number } | null;
type Outcome = { ok: boolean; message: string } | null;

/**
 * A plain multipart form posting to a server action (works before hydration). Once hydrated, the
 * file goes to `POST /documents/<id>/files` with XMLHttpRequest instead, for a progress bar; both
 * call `uploadDocumentFile`, so the server decides alike (type from the bytes, 10 MiB) and its
 * message shows next to the field. A file over the limit is stopped here first.
 */
export function UploadFileForm({ documentId }: { documentId: string }) {
  const [state, action] = useActionState<FormState, FormData>(uploadFileAction, { status: "idle" });
  const [tooBig, setTooBig] = useState<string>();
  const [upload, setUpload] = useState<Upload>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useRef<HTMLFormElement>(null);
  const router = useRouter();
  const id = useId();
  const error =
    tooBig ?? (outcome ? (outcome.ok ? undefined : outcome.message) : state.status === "error" ? (state.fieldErrors.file ?? state.message) : undefined);
  const success = outcome ? (outcome.ok ? outcome.message : "") : state.status === "ok" ? state.message : "";

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (tooBig || upload) return;
    const data = new FormData(e.currentTarget);
    const file = data.get("file");
    if (!(file instanceof File) || (file.size === 0 && !file.name)) {
      setOutcome({ ok: false, message: "Choose a file to upload." });
      return;
    }
    const request = new XMLHttpRequest();
    request.open("POST", `/documents/${documentId}/files`);
    request.responseType = "json";
    request.upload.onprogress = (p) => {
      if (p.lengthComputable) setUpload({ name: file.name, percent: Math.round((p.loaded / p.total) * 100) });
    };
    request.onload = () => {
      setUpload(null);
      const body = request.response as { fileName?: string; error?: string } | null;
      if (request.status === 201) {
        setOutcome({ ok: true, message: `Uploaded ${body?.fileName ?? file.name}.` });
        form.current?.reset();
        router.refresh();
      } else {
        setOutcome({ ok: false, message: body?.error ?? `The upload failed (HTTP ${request.status}). Try again.` });
      }
    };
    request.onerror = () => {
      setUpload(null);
      setOutcome({ ok: false, message: "The upload did not reach the server. Check your connection and try again." });
    };
    setOutcome(null);
    setUpload({ name: file.name, percent: 0 });
    request.send(data);
  }

  return (
    <form
      ref={form}
      action={action}
      encType="multipart/form-data"
      onSubmit={onSubmit}
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
            setOutcome(null);
            setTooBig(file && file.size > MAX_BYTES ? `${file.name} is larger than 10 MB. Choose a smaller file.` : undefined);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          className="block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:text-sm file:font-medium aria-[invalid=true]:border-red-700"
        />
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          PDF, PNG or JPEG, up to 10 MB.
        </p>
        {upload ? (
          <div className="space-y-1">
            <label htmlFor={`${id}-progress`} className="block text-sm text-slate-800">
              Uploading {upload.name}: {upload.percent}%
            </label>
            <progress id={`${id}-progress`} max={100} value={upload.percent} className="h-2 w-full" />
          </div>
        ) : null}
        {error ? (
          <p id={`${id}-error`} className="text-sm text-red-800">
            {error}
          </p>
        ) : null}
        <p role="status" aria-live="polite" className="text-sm text-green-800 empty:hidden">
          {tooBig ? "" : success}
        </p>
      </div>
      <SubmitButton pendingLabel="Uploading…" variant="secondary" disabled={upload !== null} className="sm:mb-6">
        {upload ? "Uploading…" : "Upload"}
      </SubmitButton>
    </form>
  );
}
