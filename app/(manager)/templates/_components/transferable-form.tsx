"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/validated-action";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";

/** Whether packages from the template start with this document marked as a transferable record; posts natively before hydration. */
export function TransferableForm({
  id,
  documentName,
  transferable,
  action,
}: {
  id: string;
  documentName: string;
  transferable: boolean;
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
}) {
  const [state, formAction] = useActionState(action, { status: "idle" } as FormState);
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="shown" value="1" />
      <label className="inline-flex items-center gap-2 text-sm text-slate-900" htmlFor={`${id}-transferable`}>
        <input id={`${id}-transferable`} type="checkbox" name="transferable" value="on" defaultChecked={transferable} className="h-4 w-4" />
        Transferable record<span className="sr-only"> {documentName}</span>
      </label>
      <SubmitButton variant="secondary" pendingLabel="Saving…">
        Save<span className="sr-only"> whether {documentName} is a transferable record</span>
      </SubmitButton>
      <div className="basis-full">
        <FormMessage state={state} id={`${id}-transferable-message`} />
      </div>
    </form>
  );
}
