"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/validated-action";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField } from "@/components/ui/field";
import { ExecutionModeSelect } from "../../signings/_signing-form/execution-mode-select";

/** Adds a PDF to a template; the API's checks (size, a readable PDF with pages) come back as the message. */
export function UploadDocumentForm({ action }: { action: (previous: FormState, formData: FormData) => Promise<FormState> }) {
  const [state, formAction] = useActionState(action, { status: "idle" } as FormState);
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-4">
      <div className="min-w-64 flex-1">
        <InputField
          id="template-document-file"
          name="file"
          type="file"
          accept="application/pdf,.pdf"
          label="PDF document"
          hint="Up to 10 MiB."
          error={state.status === "error" ? (state.fieldErrors.file ?? state.message) : undefined}
          className="file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:text-sm file:font-medium"
        />
      </div>
      <ExecutionModeSelect
        id="template-document-mode"
        name="executionMode"
        documentName=""
        label="How packages sign it"
        defaultValue={state.status === "error" ? state.values.executionMode : undefined}
        error={state.status === "error" ? state.fieldErrors.executionMode : undefined}
      />
      <SubmitButton pendingLabel="Uploading…">Upload document</SubmitButton>
      <div className="basis-full">
        <FormMessage state={state} id="template-document-message" />
      </div>
    </form>
  );
}
