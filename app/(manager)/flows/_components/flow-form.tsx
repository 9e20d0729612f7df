"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/validated-action";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField, SelectField } from "@/components/ui/field";
import type { FlowStep } from "@/db/values/flow-step-values";
import { StepsEditor } from "./steps-editor";
import { focusRing } from "@/components/ui/classes";

/** Creates a flow (with `organizations`) or edits one: name, steps in order, default for its organization. */
export function FlowForm({
  action,
  idPrefix,
  initial,
  organizations,
  submitLabel,
  pendingLabel,
}: {
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  idPrefix: string;
  initial: { name: string; steps: FlowStep[]; isDefault: boolean };
  organizations?: { id: number; name: string }[];
  submitLabel: string;
  pendingLabel: string;
}) {
  const [state, formAction] = useActionState(action, { status: "idle" } as FormState);
  const values = state.status === "error" ? state.values : null;
  const errors = state.status === "error" ? state.fieldErrors : {};
  // `values` keeps one entry per name: the steps a failed post sent are not echoed, so the editor keeps its own.
  const stepsError = errors.steps ?? Object.entries(errors).find(([key]) => key.startsWith("steps."))?.[1];
  return (
    <form action={formAction} className="space-y-5" noValidate>
      {organizations && organizations.length > 1 ? (
        <SelectField
          id={`${idPrefix}-organization`}
          name="organizationId"
          label="Organization"
          defaultValue={values?.organizationId ?? String(organizations[0]!.id)}
          error={errors.organizationId}
        >
          {organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </SelectField>
      ) : organizations?.[0] ? (
        <input type="hidden" name="organizationId" value={organizations[0].id} />
      ) : null}
      <div className="max-w-xl">
        <InputField id={`${idPrefix}-name`} name="name" label="Flow name" required maxLength={200} defaultValue={values?.name ?? initial.name} error={errors.name} />
      </div>
      <StepsEditor idPrefix={idPrefix} initial={initial.steps} error={stepsError} />
      {initial.isDefault ? (
        <p className="text-sm text-slate-700">This is the organization&apos;s default flow. Make another flow the default to replace it.</p>
      ) : (
        <div className="flex items-center gap-2">
          <input
            id={`${idPrefix}-default`}
            type="checkbox"
            name="isDefault"
            defaultChecked={values?.isDefault === "on"}
            className={`h-4 w-4 rounded border-slate-400 text-blue-700 ${focusRing}`}
          />
          <label htmlFor={`${idPrefix}-default`} className="text-sm text-slate-900">
            Make this the organization&apos;s default flow
          </label>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-4 border-t border-slate-200 pt-4">
        <SubmitButton pendingLabel={pendingLabel}>{submitLabel}</SubmitButton>
        <FormMessage state={state} id={`${idPrefix}-message`} />
      </div>
    </form>
  );
}
