"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/validated-action";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField } from "@/components/ui/field";

/**
 * Creates or renames an organization or a company: a name (and, for a new organization, an optional
 * slug), with the API's messages next to the field and what was typed kept on an error.
 */
export function NameForm({
  action,
  idPrefix,
  label,
  defaultName = "",
  hidden = {},
  withSlug = false,
  submitLabel,
  pendingLabel,
}: {
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  idPrefix: string;
  label: string;
  defaultName?: string;
  hidden?: Record<string, string>;
  withSlug?: boolean;
  submitLabel: string;
  pendingLabel: string;
}) {
  const [state, formAction] = useActionState(action, { status: "idle" } as FormState);
  const values = state.status === "error" ? state.values : {};
  const errors = state.status === "error" ? state.fieldErrors : {};
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField id={`${idPrefix}-name`} name="name" label={label} required maxLength={200} defaultValue={values.name ?? defaultName} error={errors.name} />
        {withSlug ? (
          <InputField
            id={`${idPrefix}-slug`}
            name="slug"
            label="Slug (optional)"
            hint="Lower-case letters, digits and dashes. Left empty, one is made from the name."
            maxLength={64}
            defaultValue={values.slug ?? ""}
            error={errors.slug}
          />
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pendingLabel={pendingLabel}>{submitLabel}</SubmitButton>
        <FormMessage state={state} id={`${idPrefix}-message`} />
      </div>
    </form>
  );
}
