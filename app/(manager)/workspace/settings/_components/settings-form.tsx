"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField, SelectField } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { updateSettingsAction } from "../actions";

export type SettingsValues = {
  name: string;
  logoUrl: string;
  brandColor: string;
  defaultFlowId: string;
  reminderCadenceDays: string;
  packageExpiryDays: string;
};

// The API's messages are written for integrators; a person gets these for the same rules.
const FRIENDLY: Record<string, string> = {
  name: "Give the organization a name (up to 200 characters).",
  "branding.logoUrl": "Use an https:// address of an image, or leave it empty.",
  "branding.brandColor": "Use a colour like #1d4ed8, or leave it empty.",
  reminderCadenceDays: "Enter a whole number of days from 1 to 90, or leave it empty.",
  packageExpiryDays: "Enter a whole number of days from 1 to 365, or leave it empty.",
};

/** The organization's settings; every field validated by the API's schema; what was typed stays on an error. */
export function SettingsForm({ organizationId, initial, flows }: { organizationId: number; initial: SettingsValues; flows: { id: string; name: string }[] }) {
  const [state, action] = useActionState<FormState, FormData>(updateSettingsAction, { status: "idle" });
  const values: SettingsValues = state.status === "error" ? { ...initial, ...state.values } : initial;
  const error = (key: string) => (state.status === "error" && state.fieldErrors[key] ? (FRIENDLY[key] ?? state.fieldErrors[key]) : undefined);
  return (
    <form action={action} key={state.status === "error" ? `error:${JSON.stringify(state.values)}` : `saved:${JSON.stringify(initial)}`} className="max-w-2xl space-y-5" noValidate>
      <input type="hidden" name="organizationId" value={organizationId} />
      <InputField id="settings-name" name="name" label="Organization name" required maxLength={200} defaultValue={values.name} error={error("name")} />
      <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-900">Branding on signers&apos; pages and emails</legend>
        <InputField id="settings-logo" name="logoUrl" type="url" label="Logo URL" hint="An https:// address. Leave empty for none." defaultValue={values.logoUrl} error={error("branding.logoUrl")} />
        <InputField id="settings-color" name="brandColor" label="Brand colour" hint="Hex, like #1d4ed8. Leave empty for the default." defaultValue={values.brandColor} error={error("branding.brandColor")} />
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
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField id="settings-reminder" name="reminderCadenceDays" inputMode="numeric" label="Remind signers every (days)" hint="1 to 90. Empty: no automatic reminders." defaultValue={values.reminderCadenceDays} error={error("reminderCadenceDays")} />
          <InputField id="settings-expiry" name="packageExpiryDays" inputMode="numeric" label="Packages expire after (days)" hint="1 to 365. Empty: no expiry." defaultValue={values.packageExpiryDays} error={error("packageExpiryDays")} />
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pendingLabel="Saving…">Save settings</SubmitButton>
        <FormMessage
          state={
            state.status === "error" && Object.keys(state.fieldErrors).some((key) => key in FRIENDLY)
              ? { status: "error", message: "Nothing was saved: check the field marked below." }
              : state
          }
        />
      </div>
    </form>
  );
}
