"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/validated-action";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { ExecutionModeSelect } from "../../signings/_signing-form/execution-mode-select";

/** How packages from the template execute one of its documents (hybrid closings); posts natively before hydration. */
export function DocumentModeForm({
  id,
  documentName,
  executionMode,
  action,
}: {
  id: string;
  documentName: string;
  executionMode: string;
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
}) {
  const [state, formAction] = useActionState(action, { status: "idle" } as FormState);
  const value = state.status === "error" ? state.values.executionMode : undefined;
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2">
      <ExecutionModeSelect
        id={`${id}-mode`}
        name="executionMode"
        documentName={documentName}
        defaultValue={value ?? executionMode}
        error={state.status === "error" ? (state.fieldErrors.executionMode ?? state.message) : undefined}
      />
      <SubmitButton variant="secondary" pendingLabel="Saving…">
        Save<span className="sr-only"> how {documentName} is signed</span>
      </SubmitButton>
      <div className="basis-full">
        <FormMessage state={state} id={`${id}-message`} />
      </div>
    </form>
  );
}
