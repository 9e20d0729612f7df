"use client";

import { useActionState, useMemo } from "react";
import { useTranslations } from "next-intl";
import { DirectUploadField } from "@/app/_components/uploads/direct-upload-field";
import { useUploadLabels } from "@/app/_components/uploads/use-upload-labels";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { focusRing } from "@/components/ui/classes";
import { IDLE, type FormState } from "@/components/ui/form-state";
import { ATTACHMENT_ACCEPT, MAX_ATTACHMENT_BYTES } from "@/lib/attachments/limits";
import { addAttachmentAction } from "../attachment-action";
import { completeAttachmentUpload, startAttachmentUpload } from "../attachment-upload-actions";

/**
 * One request's file: two labelled choices, "Take a photo" (the phone's camera) and "Choose a file" (a
 * saved photo or a PDF; no `capture`, which on many phones would offer only the camera). Once
 * hydrated, the chosen file goes straight to storage as this signer's upload, with its progress bar
 * and Retry (a file over 20 MiB is refused here first), and "Send" posts only its upload id. Before
 * hydration the form posts the file natively as multipart (the page's body cap fits the limit). The
 * answer is read out in the live region.
 */
export function AttachmentUploadForm({
  signingId,
  requestId,
  locale,
  labels,
}: {
  signingId: string;
  requestId: string;
  locale: string;
  labels: { choose: string; send: string; sending: string; hint: string };
}) {
  const t = useTranslations("attachments");
  const [state, formAction] = useActionState<FormState, FormData>(addAttachmentAction.bind(null, signingId, requestId), IDLE);
  const steps = useMemo(() => ({ start: startAttachmentUpload.bind(null, signingId), complete: completeAttachmentUpload.bind(null, signingId) }), [signingId]);
  const fieldLabels = useUploadLabels(MAX_ATTACHMENT_BYTES / 1024 / 1024);
  const inputId = `attachment-file-${requestId}`;
  return (
    <form action={formAction} encType="multipart/form-data" className="mt-3">
      <input type="hidden" name="locale" value={locale} />
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">{labels.choose}</legend>
        <DirectUploadField
          inputs={[
            { id: `${inputId}-camera`, label: t("takePhoto"), accept: "image/*", capture: "environment" },
            { id: inputId, label: t("chooseFile"), accept: ATTACHMENT_ACCEPT },
          ]}
          name="file"
          idsName="uploadId"
          hint={labels.hint}
          steps={steps}
          maxBytes={MAX_ATTACHMENT_BYTES}
          labels={fieldLabels}
          inputClassName={`bg-white p-2 text-sm file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:font-medium ${focusRing}`}
        />
        <SubmitButton pendingLabel={labels.sending}>{labels.send}</SubmitButton>
        <FormMessage state={state} />
      </fieldset>
    </form>
  );
}
