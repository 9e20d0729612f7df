"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import type { FormState } from "../../../_lib/validated-action";
import { remindAction } from "../actions";

/**
 * A row's "Remind" button; the outcome is announced in the row's live region. Only the type comes from
 * validated-action.ts: its values pull server-only modules into the client bundle.
 */
export function RemindForm({ signingId, title }: { signingId: string; title: string }) {
  const [state, action] = useActionState<FormState, FormData>(remindAction, { status: "idle" });
  return (
    <form action={action} className="inline-flex flex-col items-start gap-1">
      <input type="hidden" name="id" value={signingId} />
      <SubmitButton variant="secondary" pendingLabel="Reminding…" className="px-3 py-1" aria-label={`Remind signers of ${title}`}>
        Remind
      </SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
