"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import type { FormState } from "../../../_lib/validated-action";
import { controlAction, offerOrPledgeAction } from "../actions";

type Props = {
  recordId: string;
  label: string;
  role: "controller" | "offered" | "pledgee";
  status: "active" | "paper_out";
  pending: boolean;
  pledged: boolean;
};

/** The changes of control the caller's organization may make to one record; each result in a live region. */
export function RecordControlForms({ recordId, label, role, status, pending, pledged }: Props) {
  const [offerState, offerAction] = useActionState<FormState, FormData>(offerOrPledgeAction, { status: "idle" });
  const [controlState, runControl] = useActionState<FormState, FormData>(controlAction, { status: "idle" });
  const small = "px-3 py-1.5";
  const button = (op: string, text: string, variant: "primary" | "secondary" | "ghost" = "secondary") => (
    <form action={runControl}>
      <input type="hidden" name="recordId" value={recordId} />
      <input type="hidden" name="op" value={op} />
      <SubmitButton variant={variant} className={small} pendingLabel="Saving…">
        {text}
        <span className="sr-only"> ({label})</span>
      </SubmitButton>
    </form>
  );
  if (status === "paper_out") return null;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-2">
        {role === "offered" ? (
          <>
            {button("accept", "Accept control", "primary")}
            {button("decline", "Decline")}
          </>
        ) : null}
        {role === "pledgee" ? button("release", "Release pledge") : null}
        {role === "controller" && pending ? button("withdraw", "Withdraw offer") : null}
      </div>
      {role === "controller" && !pending && !pledged ? (
        <form action={runControl} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="recordId" value={recordId} />
          <input type="hidden" name="op" value="paper_out" />
          <label className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" name="confirm" required className="h-4 w-4" />
            The paper original is printed and signed; retire the electronic authoritative copy for good
            <span className="sr-only"> ({label})</span>
          </label>
          <SubmitButton variant="secondary" className={small} pendingLabel="Saving…">
            Convert to paper<span className="sr-only"> ({label})</span>
          </SubmitButton>
        </form>
      ) : null}
      {role === "controller" && !pending && !pledged ? (
        <form action={offerAction} className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="recordId" value={recordId} />
          <label className="flex flex-col text-sm text-slate-800">
            Organization identifier
            <input
              name="organization"
              required
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              maxLength={64}
              pattern="[A-Za-z0-9][A-Za-z0-9\-]*"
              placeholder="e.g. other-mortgage"
              className="w-44 rounded border border-slate-300 px-2 py-1"
            />
          </label>
          <label className="flex flex-col text-sm text-slate-800">
            Note (optional)
            <input name="note" maxLength={500} className="w-56 rounded border border-slate-300 px-2 py-1" />
          </label>
          <SubmitButton variant="secondary" className={small} pendingLabel="Saving…" name="op" value="offer">
            Offer transfer<span className="sr-only"> ({label})</span>
          </SubmitButton>
          <SubmitButton variant="secondary" className={small} pendingLabel="Saving…" name="op" value="pledge">
            Pledge<span className="sr-only"> ({label})</span>
          </SubmitButton>
        </form>
      ) : null}
      <FormMessage state={offerState} />
      <FormMessage state={controlState} />
    </div>
  );
}
