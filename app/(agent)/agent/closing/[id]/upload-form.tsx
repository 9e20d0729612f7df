"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { Input, Label } from "@/components/ui/input";
import type { FormState } from "../../../../_lib/validated-action";
import { uploadAgentScansAction } from "./actions";

const IDLE: FormState = { status: "idle" };

/** The agent's scan upload: posts natively (works before hydration); the answer is read out in the live region. */
export function AgentUploadForm({
  packageId,
  labels,
}: {
  packageId: string;
  /** The page's words in the agent's language (the server page reads the catalog). */
  labels: { files: string; hint: string; submit: string; pending: string };
}) {
  const [state, formAction] = useActionState(uploadAgentScansAction, IDLE);
  return (
    <form action={formAction} encType="multipart/form-data" className="space-y-2">
      <input type="hidden" name="packageId" value={packageId} />
      <Label htmlFor="scan-files">{labels.files}</Label>
      <Input id="scan-files" name="files" type="file" multiple required accept="application/pdf,image/jpeg,image/png" aria-describedby="scan-files-hint" />
      <p id="scan-files-hint" className="text-xs text-slate-600">
        {labels.hint}
      </p>
      <SubmitButton pendingLabel={labels.pending}>{labels.submit}</SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
