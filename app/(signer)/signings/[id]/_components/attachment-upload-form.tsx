"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { focusRing } from "@/components/ui/classes";
import { IDLE, type FormState } from "@/components/ui/form-state";
import { addAttachmentAction } from "../attachment-action";

/**
 * One request's file input: the phone's camera or a file (a photo or a PDF). Posts natively as
 * multipart (works before hydration); once hydrated, the button says it is sending while it does and
 * the answer is read out in the live region.
 */
export function AttachmentUploadForm({
  signingId,
  requestId,
  locale,
  labels,
}: {
  signingId: string;
  requestId: string;
  locale: string;
  labels: { choose: string; send: string; sending: string; hint: string };
}) {
  const [state, formAction] = useActionState<FormState, FormData>(addAttachmentAction.bind(null, signingId, requestId), IDLE);
  const inputId = `attachment-file-${requestId}`;
  const hintId = `${inputId}-hint`;
  return (
    <form action={formAction} encType="multipart/form-data" className="mt-3 space-y-2">
      <input type="hidden" name="locale" value={locale} />
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-900">
        {labels.choose}
      </label>
      <input
        id={inputId}
        name="file"
        type="file"
        required
        accept="image/*,application/pdf"
        capture="environment"
        aria-describedby={hintId}
        aria-invalid={state.status === "error" || undefined}
        className={`block w-full rounded-md border border-slate-300 bg-white p-2 text-sm text-slate-900 file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:font-medium ${focusRing}`}
      />
      <p id={hintId} className="text-xs text-slate-700">
        {labels.hint}
      </p>
      <SubmitButton pendingLabel={labels.sending}>{labels.send}</SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
