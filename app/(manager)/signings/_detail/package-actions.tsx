"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import { SubmitButton } from "@/components/ui/button";
import { buttonClass } from "@/components/ui/button-class";
import { Dialog, DialogCloseButton } from "@/components/ui/dialog";
import { FormMessage, TextAreaField } from "@/components/ui/field";
import type { FormState } from "../../../_lib/validated-action";
import { cancelSigningAction, deleteSigningAction, remindSignersAction, sendSigningAction } from "./actions";

type Props = {
  signingId: string;
  title: string;
  status: "draft" | "sent" | "in_progress" | "completed" | "cancelled" | "declined" | "expired";
  /** The signers whose turn it is (remind), or who will be emailed first (send). */
  waitingNames: string;
  firstGroupNames: string;
};

// Not `IDLE` from validated-action.ts: that module is server-only (it reaches the database), and
// importing a value from it would pull it into the browser bundle.
const IDLE: FormState = { status: "idle" };

const CANCEL_DIALOG = "cancel-package-dialog";
const SEND_DIALOG = "send-package-dialog";
const DELETE_DIALOG = "delete-package-dialog";

/** Closes a dialog once its action has answered with something other than field errors. */
function useCloseOnAnswer(state: FormState, dialogId: string) {
  const router = useRouter();
  useEffect(() => {
    if (state.status === "idle") return;
    if (state.status === "error" && Object.keys(state.fieldErrors).length > 0) return;
    (document.getElementById(dialogId) as HTMLDialogElement | null)?.close();
    // A refused action (e.g. "already cancelled") changes nothing here, but the package may have
    // moved meanwhile: show where it stands now.
    router.refresh();
  }, [state, dialogId, router]);
}

/**
 * What a manager can do with the package in its state: a draft is edited, sent or deleted; a sent
 * or in-progress package is reminded or cancelled; a finished one has no actions. The outcome of
 * each action is announced in a live region that stays in place when the state (and so the buttons)
 * change, so "Package cancelled" or "already cancelled" is heard and seen after the dialog closes.
 */
export function PackageActions({ signingId, title, status, waitingNames, firstGroupNames }: Props) {
  const [sendState, sendAction] = useActionState(sendSigningAction, IDLE);
  const [remindState, remindAction] = useActionState(remindSignersAction, IDLE);
  const [cancelState, cancelAction] = useActionState(cancelSigningAction, IDLE);
  const [deleteState, deleteAction] = useActionState(deleteSigningAction, IDLE);
  useCloseOnAnswer(sendState, SEND_DIALOG);
  useCloseOnAnswer(cancelState, CANCEL_DIALOG);
  useCloseOnAnswer(deleteState, DELETE_DIALOG);
  const open = status === "sent" || status === "in_progress";
  const cancelErrors = cancelState.status === "error" ? cancelState.fieldErrors : {};
  const hidden = <input type="hidden" name="signingId" value={signingId} />;

  return (
    <section aria-labelledby="actions-heading" className="space-y-3">
      <h2 id="actions-heading" className="sr-only">
        Actions
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        {status === "draft" ? (
          <>
            {/* Plain anchors: this view shares /signings/<id> with the signer's page, which carries no next/link code. */}
            <a href={`/signings/${signingId}/edit`} className={buttonClass("secondary")}>
              Edit draft
            </a>
            <a href={`/signings/${signingId}/fields`} className={buttonClass("secondary")}>
              Place fields
            </a>
            <Dialog
              id={SEND_DIALOG}
              title="Send this package?"
              description={
                firstGroupNames
                  ? `${firstGroupNames} will be emailed a link to sign now; later signers are emailed when their turn comes. Documents cannot be changed after sending.`
                  : "The first signers will be emailed a link to sign. Documents cannot be changed after sending."
              }
              openLabel="Send…"
              openVariant="primary"
            >
              <form action={sendAction} className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                {hidden}
                <DialogCloseButton>Not yet</DialogCloseButton>
                <SubmitButton pendingLabel="Sending…">Send the package</SubmitButton>
              </form>
            </Dialog>
            <Dialog
              id={DELETE_DIALOG}
              title="Delete this draft?"
              description={`“${title}” and its documents are deleted. This cannot be undone; the audit trail keeps a record of the deletion.`}
              openLabel="Delete draft…"
              openVariant="danger"
            >
              <form action={deleteAction} className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                {hidden}
                <DialogCloseButton>Keep the draft</DialogCloseButton>
                <SubmitButton variant="danger" pendingLabel="Deleting…">
                  Delete the draft
                </SubmitButton>
              </form>
            </Dialog>
          </>
        ) : null}
        {open ? (
          <>
            <a href={`/signings/${signingId}/in-person`} className={buttonClass("secondary")}>
              Sign in person…
            </a>
            <form action={remindAction}>
              {hidden}
              <SubmitButton variant="primary" pendingLabel="Sending reminder…">
                {waitingNames ? `Remind ${waitingNames}` : "Remind signers"}
              </SubmitButton>
            </form>
            <Dialog
              id={CANCEL_DIALOG}
              title="Cancel this package?"
              description="Nobody can sign it after this, and it cannot be undone. Signers who have not finished are told by email, with your reason."
              openLabel="Cancel package…"
              openVariant="danger"
            >
              <form action={cancelAction} className="space-y-4">
                {hidden}
                <TextAreaField
                  id="cancel-reason"
                  name="reason"
                  label="Reason (optional, sent to the signers)"
                  hint="For example: “Wrong loan amount; a corrected package follows.” Up to 1,000 characters."
                  rows={3}
                  maxLength={1000}
                  defaultValue={cancelState.status === "error" ? (cancelState.values.reason ?? "") : ""}
                  key={cancelState.status === "error" ? `error:${cancelState.message}` : "idle"}
                  error={cancelErrors.reason}
                />
                <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                  <DialogCloseButton>Keep the package</DialogCloseButton>
                  <SubmitButton variant="danger" pendingLabel="Cancelling…">
                    Cancel the package
                  </SubmitButton>
                </div>
              </form>
            </Dialog>
          </>
        ) : null}
        {!open && status !== "draft" ? <p className="text-sm text-slate-700">This package is finished; there is nothing more to do with it.</p> : null}
      </div>
      <div className="space-y-1">
        <FormMessage state={sendState} />
        <FormMessage state={remindState} />
        <FormMessage state={cancelState} />
        <FormMessage state={deleteState} />
      </div>
    </section>
  );
}
