"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField, SelectField } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { startInPersonAction } from "./actions";

const IDLE: FormState = { status: "idle" };

const ID_TYPES = [
  ["drivers_license", "Driver's license"],
  ["passport", "Passport"],
  ["state_id", "State ID card"],
  ["military_id", "Military ID"],
  ["other", "Other government ID"],
] as const;

/** Who signs now and the identification checked; on success the page moves to the signer's package (the action redirects). */
export function InPersonForm({ signingId, signers, preselected }: { signingId: string; signers: { id: string; label: string }[]; preselected?: string }) {
  const [state, formAction] = useActionState(startInPersonAction, IDLE);
  const values = state.status === "error" ? state.values : undefined;
  const errors = state.status === "error" ? state.fieldErrors : {};
  return (
    // Keyed by the refusal, so React's reset after the action gives back what was typed (defaultValue).
    <form
      key={state.status === "error" ? `error:${JSON.stringify(values)}:${state.message}` : "form"}
      action={formAction}
      aria-labelledby="in-person-form-heading"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="in-person-form-heading" className="text-lg font-semibold text-slate-900">
        Identification checked
      </h2>
      <input type="hidden" name="signingId" value={signingId} />
      <SelectField id="signerId" name="signerId" label="Who signs now" required defaultValue={values?.signerId ?? preselected ?? signers[0]?.id} error={errors.signerId}>
        {signers.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField id="idType" name="idType" label="Kind of identification" required defaultValue={values?.idType ?? "drivers_license"} error={errors.idType}>
          {ID_TYPES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <InputField
          id="idIssuer"
          name="idIssuer"
          label="Issued by"
          hint="The state or country, e.g. Texas"
          required
          maxLength={80}
          autoComplete="off"
          defaultValue={values?.idIssuer ?? ""}
          error={errors.idIssuer}
        />
      </div>
      <InputField
        id="idLastFour"
        name="idLastFour"
        label="Last four characters of its number"
        hint="Only the last four: the whole number is never recorded."
        required
        minLength={4}
        maxLength={4}
        pattern="[A-Za-z0-9]{4}"
        inputMode="text"
        autoComplete="off"
        className="w-28"
        defaultValue={values?.idLastFour ?? ""}
        error={errors.idLastFour}
      />
      <div className="space-y-1">
        <div className="flex items-start gap-2">
          <input
            id="checked"
            name="checked"
            type="checkbox"
            required
            className="mt-1 h-4 w-4"
            defaultChecked={values?.checked === "on"}
            aria-invalid={errors.checked ? true : undefined}
            aria-describedby={errors.checked ? "checked-error" : undefined}
          />
          <label htmlFor="checked" className="text-sm text-slate-800">
            I compared this identification with the person in front of me, and it is theirs.
          </label>
        </div>
        {errors.checked ? (
          <p id="checked-error" className="text-sm text-red-800">
            {errors.checked}
          </p>
        ) : null}
      </div>
      <SubmitButton pendingLabel="Opening the package…">Hand over the device</SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
