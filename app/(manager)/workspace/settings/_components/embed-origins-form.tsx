"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, TextAreaField } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { updateEmbedOriginsAction } from "../actions";

/** The sites allowed to frame embedded signing (docs/embedded-signing.md): one origin a line. */
export function EmbedOriginsForm({ organizationId, origins }: { organizationId: number; origins: string[] }) {
  const [state, save] = useActionState<FormState, FormData>(updateEmbedOriginsAction, { status: "idle" });
  const typed = state.status === "error" ? state.values?.origins : undefined;
  return (
    <form action={save} className="space-y-3 rounded-lg border border-slate-200 p-4" aria-labelledby="embed-origins-heading">
      <h2 id="embed-origins-heading" className="text-sm font-semibold text-slate-900">
        Embedded signing
      </h2>
      <input type="hidden" name="organizationId" value={organizationId} />
      <TextAreaField
        id="settings-embed-origins"
        name="origins"
        rows={3}
        label="Sites allowed to show signing inside their pages"
        hint="One origin a line, such as https://portal.lender.example: https, no path, no wildcard. Leave empty to allow none."
        defaultValue={typed ?? origins.join("\n")}
        error={state.status === "error" ? state.message : undefined}
      />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pendingLabel="Saving…">Save sites</SubmitButton>
        <FormMessage state={state.status === "error" ? { status: "error", message: "Nothing was saved." } : state} />
      </div>
    </form>
  );
}
