"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { DirectUploadField } from "../../../_shared/uploads/direct-upload-field";
import type { FormState } from "../../../../_lib/validated-action";
import { removeLogoAction, uploadLogoAction } from "../actions";

/** Upload or remove the logo: a PNG or JPEG, checked by the server by its bytes. */
export function LogoForm({ organizationId, logo }: { organizationId: number; logo: { url: string; width: number; height: number } | null }) {
  const [uploadState, upload] = useActionState<FormState, FormData>(uploadLogoAction, { status: "idle" });
  const [removeState, remove] = useActionState<FormState, FormData>(removeLogoAction, { status: "idle" });
  const error = uploadState.status === "error" ? (uploadState.fieldErrors.logo ?? uploadState.fieldErrors.uploadId ?? uploadState.message) : undefined;
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">Logo</legend>
      {logo ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img src={logo.url} alt="The current logo" className="h-12 w-auto rounded border border-slate-200 bg-white p-1" />
      ) : (
        <p className="text-sm text-slate-700">No logo uploaded: pages and emails show the display name.</p>
      )}
      <form action={upload} className="space-y-3">
        <input type="hidden" name="organizationId" value={organizationId} />
        <DirectUploadField
          id="settings-logo-file"
          name="logo"
          accept="image/png,image/jpeg"
          label="Upload a logo"
          hint="PNG or JPEG, at most 512 KiB and 2000 pixels a side. Shown about 40 pixels high."
          error={error}
        />
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pendingLabel="Uploading…">Upload logo</SubmitButton>
          <FormMessage state={uploadState.status === "error" ? { status: "error", message: "The logo was not uploaded." } : uploadState} />
        </div>
      </form>
      {logo ? (
        <form action={remove} className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="organizationId" value={organizationId} />
          <SubmitButton variant="secondary" pendingLabel="Removing…">
            Remove logo
          </SubmitButton>
          <FormMessage state={removeState} />
        </form>
      ) : null}
    </fieldset>
  );
}
