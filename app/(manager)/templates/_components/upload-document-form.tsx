"use client";

import { useActionState, useState } from "react";
import type { FormState } from "@/app/_lib/validated-action";
import { Button, SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField } from "@/components/ui/field";
import { useHydrated } from "@/components/ui/use-hydrated";
import { uploadPdf } from "@/components/uploads/direct-upload";
import { UploadProgress } from "@/components/uploads/upload-progress";
import { completeDocumentUpload, startDocumentUpload } from "../../_shared/uploads/upload-actions";
import { ExecutionModeSelect } from "../../signings/_signing-form/execution-mode-select";

type Picked =
  | { status: "uploading"; file: File; progress: number }
  | { status: "ok"; file: File; uploadId: string; pageCount: number }
  | { status: "error"; file: File; error: string };

/**
 * Adds a PDF to a template. Once the page has hydrated, the chosen file goes straight to storage
 * (the direct-upload flow of `POST /v1/uploads`, with a progress bar and Retry) and the form posts only
 * its upload id, so files up to 100 MiB work on any host; before hydration, or after a failed upload
 * that is not retried, the file itself is posted (up to 10 MiB). The API's checks (size, a readable PDF with pages) come back as the message.
 */
export function UploadDocumentForm({ action }: { action: (previous: FormState, formData: FormData) => Promise<FormState> }) {
  const [state, formAction] = useActionState(action, { status: "idle" } as FormState);
  const hydrated = useHydrated();
  const [picked, setPicked] = useState<Picked | null>(null);
  // A document added: the form starts over for the next one (React resets the file input itself).
  const [answered, setAnswered] = useState(state);
  if (answered !== state) {
    setAnswered(state);
    if (state.status === "ok") setPicked(null);
  }

  function upload(file: File) {
    setPicked({ status: "uploading", file, progress: 0 });
    void uploadPdf(file, (progress) => setPicked((current) => (current?.file === file && current.status === "uploading" ? { ...current, progress } : current)), {
      start: startDocumentUpload,
      complete: completeDocumentUpload,
    }).then((result) =>
      setPicked((current) =>
        current?.file !== file ? current : result.ok ? { status: "ok", file, uploadId: result.uploadId, pageCount: result.pageCount } : { status: "error", file, error: result.error },
      ),
    );
  }

  const uploaded = picked?.status === "ok" ? picked : null;
  const fieldError = state.status === "error" ? (state.fieldErrors.file ?? state.fieldErrors.uploadId ?? state.message) : undefined;
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-4">
      <div className="min-w-64 flex-1 space-y-2">
        <InputField
          id="template-document-file"
          // Once the file is in storage, only its upload id is posted.
          name={uploaded ? undefined : "file"}
          type="file"
          accept="application/pdf,.pdf"
          label="PDF document"
          hint={hydrated ? "Up to 100 MiB and 500 pages; it uploads as soon as you choose it." : "Up to 10 MiB."}
          error={picked?.status === "error" ? undefined : fieldError}
          onChange={
            hydrated
              ? (event) => {
                  const file = event.currentTarget.files?.[0];
                  if (file) upload(file);
                  else setPicked(null);
                }
              : undefined
          }
          className="file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:text-sm file:font-medium"
        />
        {uploaded ? (
          <>
            <input type="hidden" name="uploadId" value={uploaded.uploadId} />
            <input type="hidden" name="name" value={uploaded.file.name} />
          </>
        ) : null}
        {picked ? (
          <div className="flex flex-wrap items-center gap-3 text-sm">
            {picked.status === "error" ? (
              <>
                <p role="alert" className="font-medium text-red-800">
                  Not uploaded: {picked.error}
                </p>
                <Button variant="secondary" className="px-2 py-1" aria-label={`Retry ${picked.file.name}`} onClick={() => upload(picked.file)}>
                  Retry
                </Button>
              </>
            ) : picked.status === "uploading" ? (
              <UploadProgress fileName={picked.file.name} status="uploading" progress={picked.progress} />
            ) : (
              <UploadProgress fileName={picked.file.name} status="ok" progress={1} pageCount={picked.pageCount} />
            )}
          </div>
        ) : null}
      </div>
      <ExecutionModeSelect
        id="template-document-mode"
        name="executionMode"
        documentName=""
        label="How packages sign it"
        defaultValue={state.status === "error" ? state.values.executionMode : undefined}
        error={state.status === "error" ? state.fieldErrors.executionMode : undefined}
      />
      <SubmitButton pendingLabel="Adding…" disabled={picked?.status === "uploading"}>
        Upload document
      </SubmitButton>
      <div className="basis-full">
        <FormMessage state={state} id="template-document-message" />
      </div>
    </form>
  );
}
