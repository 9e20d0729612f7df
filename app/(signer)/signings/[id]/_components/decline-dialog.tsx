"use client";

import { useLocale, useTranslations } from "next-intl";
import { useActionState, useEffect, useRef } from "react";
import { useFormStatus } from "react-dom";
import { declineSigningAction, type DeclineState } from "../decline-action";
import { focusRing } from "@/components/ui/classes";
import { Dialog } from "@/components/ui/dialog";

type Props = { signingId: string; organizationName: string; otherSignerNames: string[] };

const DIALOG_ID = "decline-dialog";

/**
 * "Decline to sign": a `Dialog` (focus stays inside, Escape closes, focus returns to the button)
 * that says what declining does and who is told, and asks for a reason. It opens and the form posts
 * natively before this chunk has loaded (see deferred.tsx); an error keeps the dialog open with the
 * reason as typed.
 */
export function DeclineDialog({ signingId, organizationName, otherSignerNames }: Props) {
  const t = useTranslations("decline");
  const locale = useLocale();
  const [state, formAction] = useActionState(declineSigningAction.bind(null, signingId), { status: "idle" } as DeclineState);
  const reasonRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (state.status === "error") reasonRef.current?.focus();
  }, [state]);

  const others = otherSignerNames.length > 0 ? t("othersStop", { names: otherSignerNames.join(", ") }) : t("stops");

  return (
    <Dialog
      id={DIALOG_ID}
      className="w-[calc(100%-2rem)] max-w-md p-6"
      title={t("title")}
      description={`${t("whatHappens", { organization: organizationName })} ${others}`}
      openLabel={t("open")}
      openClassName={`w-full rounded-md border border-slate-400 bg-white px-4 py-2.5 text-sm font-medium text-slate-900 hover:bg-slate-50 ${focusRing}`}
    >
      <form action={formAction} className="space-y-4">
        <input type="hidden" name="locale" value={locale} />
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
            onClick={(event) => event.currentTarget.closest("dialog")?.close()}
            className={`rounded-md border border-slate-400 bg-white px-4 py-2.5 text-sm font-medium hover:bg-slate-50 ${focusRing}`}
          >
            {t("keep")}
          </button>
          <ConfirmButton pendingLabel={t("declining")} label={t("confirm")} />
        </div>
      </form>
    </Dialog>
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
