"use client";

import { useActionState, useMemo } from "react";
import { DirectUploadField } from "@/app/_components/uploads/direct-upload-field";
import { useUploadLabels } from "@/app/_components/uploads/use-upload-labels";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { uploadAgentScansAction } from "./actions";
import { completeAgentScanUpload, startAgentScanUpload } from "./upload-actions";

const IDLE: FormState = { status: "idle" };

/**
 * The agent's scan upload, as the manager's scanback form: once hydrated each file goes straight to
 * storage as this agent session's upload (its progress bar, its Retry) and "Upload and check" posts
 * only the upload ids; before hydration the files are posted natively (the small-file path). The
 * answer is read out in the live region.
 */
export function AgentUploadForm({
  packageId,
  maxBytes,
  labels,
}: {
  packageId: string;
  /** The most one scanned file may be (checked here before it is sent, and again by the server). */
  maxBytes: number;
  /** The page's words in the agent's language (the server page reads the catalog). */
  labels: { files: string; hint: string; submit: string; pending: string };
}) {
  const [state, formAction] = useActionState(uploadAgentScansAction, IDLE);
  const steps = useMemo(() => ({ start: startAgentScanUpload.bind(null, packageId), complete: completeAgentScanUpload.bind(null, packageId) }), [packageId]);
  const fieldLabels = useUploadLabels(maxBytes / 1024 / 1024);
  return (
    <form action={formAction} encType="multipart/form-data" className="space-y-2">
      <input type="hidden" name="packageId" value={packageId} />
      <DirectUploadField
        inputs={[{ id: "scan-files", label: labels.files, accept: "application/pdf,image/jpeg,image/png" }]}
        name="files"
        idsName="uploadIds"
        hint={labels.hint}
        multiple
        required
        steps={steps}
        maxBytes={maxBytes}
        labels={fieldLabels}
      />
      <SubmitButton pendingLabel={labels.pending}>{labels.submit}</SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
