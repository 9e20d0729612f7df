"use client";

import { useLocale, useTranslations } from "next-intl";
import { useActionState, useEffect, useRef } from "react";
import { useFormStatus } from "react-dom";
import { declineSigningAction, type DeclineState } from "../decline-action";
import { focusRing } from "@/components/ui/classes";

type Props = { signingId: string; organizationName: string; otherSignerNames: string[] };

const DIALOG_ID = "decline-dialog";

// Invoker commands open the dialog before hydration too (Chromium 135+); React does not type them yet.
const opensDialog = { command: "show-modal", commandfor: DIALOG_ID } as Record<string, string>;

/**
 * "Decline to sign": a native modal <dialog> (focus stays inside, Escape closes, focus returns to
 * the button) that says what declining does and who is told, and asks for a reason. The form posts
 * natively; an error keeps the dialog open with the reason as typed.
 */
export function DeclineDialog({ signingId, organizationName, otherSignerNames }: Props) {
  const t = useTranslations("decline");
  const locale = useLocale();
  const [state, formAction] = useActionState(declineSigningAction.bind(null, signingId), { status: "idle" } as DeclineState);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (state.status === "error") reasonRef.current?.focus();
  }, [state]);

  const others = otherSignerNames.length > 0 ? t("othersStop", { names: otherSignerNames.join(", ") }) : t("stops");

  return (
    <>
      <button
        ref={openerRef}
        type="button"
        {...opensDialog}
        onClick={(event) => {
          event.preventDefault();
          dialogRef.current?.showModal();
        }}
        className={`w-full rounded-md border border-slate-400 bg-white px-4 py-2.5 text-sm font-medium text-slate-900 hover:bg-slate-50 ${focusRing}`}
      >
        {t("open")}
      </button>
      <dialog
        ref={dialogRef}
        id={DIALOG_ID}
        aria-labelledby="decline-title"
        aria-describedby="decline-what-happens"
        onClose={() => openerRef.current?.focus()}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      >
        <form action={formAction} className="space-y-4 p-6">
          <input type="hidden" name="locale" value={locale} />
          <h2 id="decline-title" className="text-lg font-semibold">
            {t("title")}
          </h2>
          <p id="decline-what-happens" className="text-sm text-slate-700">
            {t("whatHappens", { organization: organizationName })} {others}
          </p>
          <div className="space-y-1">
            <label htmlFor="decline-reason" className="block text-sm font-medium">
              {t("reasonLabel")}
            </label>
            <textarea
              ref={reasonRef}
              id="decline-reason"
              name="reason"
              required
              maxLength={1000}
              rows={4}
              defaultValue={state.status === "error" ? state.reason : ""}
              key={state.status === "error" ? `error:${state.message}:${state.reason}` : "idle"}
              aria-invalid={state.status === "error" ? true : undefined}
              aria-describedby="decline-reason-hint decline-error"
              className="block w-full rounded-md border border-slate-400 px-3 py-2 text-base focus:border-blue-600 focus:outline-2 focus:outline-blue-600 aria-[invalid=true]:border-red-700"
            />
            <p id="decline-reason-hint" className="text-xs text-slate-700">
              {t("reasonHint")}
            </p>
          </div>
          <p id="decline-error" role="alert" className="text-sm text-red-800 empty:hidden">
            {state.status === "error" ? state.message : ""}
          </p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={() => dialogRef.current?.close()}
              className={`rounded-md border border-slate-400 bg-white px-4 py-2.5 text-sm font-medium hover:bg-slate-50 ${focusRing}`}
            >
              {t("keep")}
            </button>
            <ConfirmButton pendingLabel={t("declining")} label={t("confirm")} />
          </div>
        </form>
      </dialog>
    </>
  );
}

function ConfirmButton({ label, pendingLabel }: { label: string; pendingLabel: string }) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      disabled={pending}
      className="rounded-md bg-red-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-wait disabled:opacity-70"
    >
      {pending ? pendingLabel : label}
    </button>
  );
}
