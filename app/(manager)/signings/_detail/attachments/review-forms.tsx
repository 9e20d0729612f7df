"use client";

import { createContext, useActionState, useContext, useEffect, useRef, type ReactNode } from "react";
import { SubmitButton } from "@/components/ui/button";
import { Dialog, DialogCloseButton } from "@/components/ui/dialog";
import { FormMessage } from "@/components/ui/field";
import { IDLE, type FormState } from "@/components/ui/form-state";
import { changeAttachmentRequestAction, reviewAttachmentAction } from "./actions";

/**
 * Accept (one button, posts natively) and Reject (a `Dialog` asking for the reason; focus goes to
 * the reason, and back to the Reject button when it closes). A refused reason keeps the dialog open
 * with focus on it; a rejection closes it and is announced next to the buttons.
 */
export function AttachmentReviewForms({ signingId, attachmentId, fileName }: { signingId: string; attachmentId: string; fileName: string }) {
  const [state, formAction] = useActionState<FormState, FormData>(reviewAttachmentAction, IDLE);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const dialogId = `reject-${attachmentId}`;
  useEffect(() => {
    if (state.status === "error") reasonRef.current?.focus();
    if (state.status === "ok") (document.getElementById(dialogId) as HTMLDialogElement | null)?.close();
  }, [state, dialogId]);
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
        <Dialog
          id={dialogId}
          className="w-[calc(100%-2rem)] max-w-md p-6"
          title={`Reject ${fileName}`}
          openLabel={
            <>
              Reject<span className="sr-only"> {fileName}</span>
            </>
          }
        >
          <form action={formAction} className="space-y-4">
            <input type="hidden" name="signingId" value={signingId} />
            <input type="hidden" name="attachmentId" value={attachmentId} />
            <input type="hidden" name="decision" value="reject" />
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
              <DialogCloseButton>Cancel</DialogCloseButton>
              <SubmitButton variant="danger" pendingLabel="Rejecting…">
                Reject and tell the signer
              </SubmitButton>
            </div>
          </form>
        </Dialog>
      </div>
      <FormMessage state={state} />
    </div>
  );
}

const RequestAction = createContext<((formData: FormData) => void) | null>(null);

/**
 * Holds the request changes' one form state for the whole list, so the outcome stays announced (below
 * the list) even when the change removes the request it was made on.
 */
export function AttachmentRequestActions({ children }: { children: ReactNode }) {
  const [state, formAction] = useActionState<FormState, FormData>(changeAttachmentRequestAction, IDLE);
  return (
    <RequestAction.Provider value={formAction}>
      {children}
      <div className="mt-3">
        <FormMessage state={state} />
      </div>
    </RequestAction.Provider>
  );
}

/**
 * What a manager can change about one request on an open package: stop requiring it (or require it
 * again), and withdraw it while nothing was sent for it. Each is a native form post, inside
 * `AttachmentRequestActions`, which announces the outcome.
 */
export function AttachmentRequestForms({ signingId, requestId, requestName, required, canWithdraw }: { signingId: string; requestId: string; requestName: string; required: boolean; canWithdraw: boolean }) {
  const formAction = useContext(RequestAction);
  if (!formAction) throw new Error("AttachmentRequestForms must be inside AttachmentRequestActions.");
  const form = (change: "optional" | "required" | "withdraw", label: string, pendingLabel: string) => (
    <form action={formAction}>
      <input type="hidden" name="signingId" value={signingId} />
      <input type="hidden" name="requestId" value={requestId} />
      <input type="hidden" name="change" value={change} />
      <SubmitButton variant="secondary" pendingLabel={pendingLabel}>
        {label}
        <span className="sr-only"> {requestName}</span>
      </SubmitButton>
    </form>
  );
  return (
    <div className="mt-2 flex flex-wrap gap-2">
      {required ? form("optional", "Don't require", "Changing…") : form("required", "Require", "Changing…")}
      {canWithdraw ? form("withdraw", "Withdraw request", "Withdrawing…") : null}
    </div>
  );
}
