"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { focusRing } from "@/components/ui/classes";
import { stopTextsAction, type StopTextsState } from "../stop-texts-action";

/** The "Stop text messages" button; works before hydration (a plain form post); an error is announced. */
export function StopTextsForm({ signingId, phoneEnding }: { signingId: string; phoneEnding: string }) {
  const t = useTranslations("texts");
  const [state, formAction, pending] = useActionState(stopTextsAction.bind(null, signingId), { status: "idle" } as StopTextsState);
  return (
    <form action={formAction} className="space-y-2">
      <p className="text-sm text-slate-800">
        {t("intro", { ending: phoneEnding })}
      </p>
      <button
        type="submit"
        disabled={pending}
        className={`rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50 disabled:opacity-60 ${focusRing}`}
      >
        {t("stop")}
      </button>
      <p role="status" aria-live="polite" className="text-sm text-red-800">
        {state.status === "error" ? state.message : null}
      </p>
    </form>
  );
}
