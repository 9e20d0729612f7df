"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { FormMessage } from "@/components/ui/field";
import { focusRing } from "@/components/ui/classes";
import type { FormState } from "@/app/_lib/validated-action";
import { acknowledgeAction } from "../acknowledge-action";

const IDLE: FormState = { status: "idle" };

/** "I received <document>": one review-only document's acknowledgement (works before hydration). */
export function AcknowledgeForm({ signingId, documentId, name }: { signingId: string; documentId: string; name: string }) {
  const t = useTranslations("closing");
  const [state, action, pending] = useActionState(acknowledgeAction, IDLE);
  return (
    <form action={action} className="space-y-1">
      <input type="hidden" name="signingId" value={signingId} />
      <input type="hidden" name="documentId" value={documentId} />
      <span className="block font-medium text-slate-900">{name}</span>
      <button
        type="submit"
        disabled={pending}
        className={`min-h-11 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-50 ${focusRing}`}
      >
        {pending ? t("saving") : <>{t("iReceivedIt")}<span className="sr-only">: {name}</span></>}
      </button>
      <FormMessage state={state} />
    </form>
  );
}
