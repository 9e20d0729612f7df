"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField, SelectField } from "@/components/ui/field";
import type { BrandPreview } from "@/lib/workspace/preview-branding";
import type { FormState } from "../../../../_lib/validated-action";
import { updateSettingsAction, type SettingsFormData } from "../actions";
import { BrandPreviewPanel } from "./brand-preview";

export type SettingsValues = {
  name: string;
  logoUrl: string;
  brandColor: string;
  displayName: string;
  supportEmail: string;
  supportPhone: string;
  footer: string;
  defaultFlowId: string;
  defaultLanguage: string;
  reminderCadenceDays: string;
  packageExpiryDays: string;
};

// The API's messages are written for integrators; a person gets these for the same rules.
const FRIENDLY: Record<string, string> = {
  name: "Give the organization a name (up to 200 characters).",
  "branding.logoUrl": "Use an https:// address of an image, or leave it empty.",
  "branding.displayName": "Use up to 100 characters, or leave it empty for the organization's name.",
  "branding.supportEmail": "Enter an email address borrowers can write to, or leave it empty.",
  "branding.supportPhone": "Enter a phone number (digits, spaces, + ( ) . -), or leave it empty.",
  "branding.footer": "Keep the footer to 200 characters.",
  reminderCadenceDays: "Enter a whole number of days from 1 to 90, or leave it empty.",
  packageExpiryDays: "Enter a whole number of days from 1 to 365, or leave it empty.",
};

/** The organization's settings; every field validated by the API's schema; what was typed stays on an error. */
export function SettingsForm({
  organizationId,
  initial,
  flows,
  preview,
}: {
  organizationId: number;
  initial: SettingsValues;
  flows: { id: string; name: string }[];
  /** The saved branding as borrowers see it. */
  preview: BrandPreview;
}) {
  const [state, action] = useActionState<FormState<SettingsFormData>, FormData>(updateSettingsAction, { status: "idle" });
  const previewed = state.status === "ok" ? state.data : undefined;
  const values: SettingsValues =
    state.status === "error" ? { ...initial, ...state.values } : previewed ? { ...initial, ...previewed.values } : initial;
  // A contrast refusal explains itself (the ratio and what to do); other messages are the friendly ones.
  const error = (key: string) =>
    state.status === "error" && state.fieldErrors[key]
      ? key === "branding.brandColor" && state.fieldErrors[key].includes("contrast")
        ? state.fieldErrors[key]
        : (FRIENDLY[key] ?? state.fieldErrors[key])
      : undefined;
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,42rem)_minmax(0,1fr)]">
    <form
      action={action}
      key={state.status === "error" ? `error:${JSON.stringify(state.values)}` : previewed ? `preview:${JSON.stringify(previewed.values)}` : `saved:${JSON.stringify(initial)}`}
      className="max-w-2xl space-y-5"
      noValidate
    >
      <input type="hidden" name="organizationId" value={organizationId} />
      <InputField id="settings-name" name="name" label="Organization name" required maxLength={200} defaultValue={values.name} error={error("name")} />
      <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-900">Branding on signers&apos; pages and emails</legend>
        <InputField id="settings-display-name" name="displayName" label="Name borrowers see" hint="Emails come from “<this name> via Closing & Signing”. Empty: the organization's name." maxLength={100} defaultValue={values.displayName} error={error("branding.displayName")} />
        <InputField id="settings-color" name="brandColor" label="Brand colour" hint="Hex, like #1d4ed8: buttons and links. It must be dark enough for white text (4.5:1). Empty: the default blue." defaultValue={values.brandColor} error={error("branding.brandColor")} />
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField id="settings-support-email" name="supportEmail" type="email" label="Support email" hint="Borrowers' replies go here." defaultValue={values.supportEmail} error={error("branding.supportEmail")} />
          <InputField id="settings-support-phone" name="supportPhone" type="tel" label="Support phone" defaultValue={values.supportPhone} error={error("branding.supportPhone")} />
        </div>
        <InputField id="settings-footer" name="footer" label="Footer line" hint="Up to 200 characters, e.g. a licence number." maxLength={200} defaultValue={values.footer} error={error("branding.footer")} />
        <InputField id="settings-logo" name="logoUrl" type="url" label="Logo URL for emails (optional)" hint="An https:// address, used in emails only when no logo is uploaded. Pages show only uploaded logos." defaultValue={values.logoUrl} error={error("branding.logoUrl")} />
      </fieldset>
      <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-900">Defaults for new packages</legend>
        <SelectField id="settings-flow" name="defaultFlowId" label="Default flow" defaultValue={values.defaultFlowId} error={error("defaultFlowId")}>
          <option value="">The built-in flow (review, sign, done)</option>
          {flows.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="settings-language"
          name="defaultLanguage"
          label="Borrowers' language"
          hint="Signers' pages and emails, unless a signer has their own language. Borrowers can switch on the page."
          defaultValue={values.defaultLanguage}
          error={error("defaultLanguage")}
        >
          <option value="en">English</option>
          <option value="es">Spanish</option>
        </SelectField>
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField id="settings-reminder" name="reminderCadenceDays" inputMode="numeric" label="Remind signers every (days)" hint="1 to 90. Empty: no automatic reminders." defaultValue={values.reminderCadenceDays} error={error("reminderCadenceDays")} />
          <InputField id="settings-expiry" name="packageExpiryDays" inputMode="numeric" label="Packages expire after (days)" hint="1 to 365. Empty: no expiry." defaultValue={values.packageExpiryDays} error={error("packageExpiryDays")} />
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pendingLabel="Saving…">Save settings</SubmitButton>
        <SubmitButton variant="secondary" name="intent" value="preview" pendingLabel="Preparing preview…">
          Preview branding
        </SubmitButton>
        <FormMessage
          state={
            state.status === "error" && Object.keys(state.fieldErrors).some((key) => key in FRIENDLY)
              ? { status: "error", message: "Nothing was saved: check the field marked below." }
              : state
          }
        />
      </div>
    </form>
    <BrandPreviewPanel preview={previewed?.preview ?? preview} unsaved={Boolean(previewed)} />
    </div>
  );
}
