"use client";

import { useActionState, useEffect, useRef } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { focusRing } from "@/components/ui/classes";
import { IDLE, type FormState } from "@/components/ui/form-state";
import { reviewAttachmentAction } from "./actions";

/**
 * Accept (one button, posts natively) and Reject (a native modal <dialog> asking for the reason,
 * opened by an invoker command so it works before hydration in current browsers; focus goes to the
 * reason, and back to the opener when it closes).
 */
export function AttachmentReviewForms({ signingId, attachmentId, fileName }: { signingId: string; attachmentId: string; fileName: string }) {
  const [state, formAction] = useActionState<FormState, FormData>(reviewAttachmentAction, IDLE);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const dialogId = `reject-${attachmentId}`;
  const opensDialog = { command: "show-modal", commandfor: dialogId } as Record<string, string>;
  useEffect(() => {
    if (state.status === "error") reasonRef.current?.focus();
    if (state.status === "ok") dialogRef.current?.close();
  }, [state]);
  return (
    <div className="mt-2 space-y-2">
      <div className="flex flex-wrap gap-2">
        <form action={formAction}>
          <input type="hidden" name="signingId" value={signingId} />
          <input type="hidden" name="attachmentId" value={attachmentId} />
          <input type="hidden" name="decision" value="accept" />
          <SubmitButton pendingLabel="Accepting…">
            Accept<span className="sr-only"> {fileName}</span>
          </SubmitButton>
        </form>
        <button
          ref={openerRef}
          type="button"
          {...opensDialog}
          onClick={(event) => {
            event.preventDefault();
            dialogRef.current?.showModal();
            reasonRef.current?.focus();
          }}
          className={`rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50 ${focusRing}`}
        >
          Reject<span className="sr-only"> {fileName}</span>
        </button>
      </div>
      <FormMessage state={state} />
      <dialog
        ref={dialogRef}
        id={dialogId}
        aria-labelledby={`${dialogId}-title`}
        onClose={() => openerRef.current?.focus()}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      >
        <form action={formAction} className="space-y-4 p-6">
          <input type="hidden" name="signingId" value={signingId} />
          <input type="hidden" name="attachmentId" value={attachmentId} />
          <input type="hidden" name="decision" value="reject" />
          <h2 id={`${dialogId}-title`} className="text-lg font-semibold">
            Reject {fileName}
          </h2>
          <div className="space-y-1">
            <label htmlFor={`${dialogId}-reason`} className="block text-sm font-medium">
              Reason (the signer reads it)
            </label>
            <textarea
              ref={reasonRef}
              id={`${dialogId}-reason`}
              name="reason"
              required
              maxLength={1000}
              rows={3}
              aria-invalid={state.status === "error" || undefined}
              aria-describedby={`${dialogId}-error`}
              className="block w-full rounded-md border border-slate-400 px-3 py-2 text-base focus:border-blue-600 focus:outline-2 focus:outline-blue-600"
            />
          </div>
          <p id={`${dialogId}-error`} role="alert" className="text-sm text-red-800 empty:hidden">
            {state.status === "error" ? state.message : ""}
          </p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={() => dialogRef.current?.close()}
              className={`rounded-md border border-slate-400 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50 ${focusRing}`}
            >
              Cancel
            </button>
            <SubmitButton variant="danger" pendingLabel="Rejecting…">
              Reject and tell the signer
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </div>
  );
}
