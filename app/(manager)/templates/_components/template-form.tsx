"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/validated-action";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField, SelectField, TextAreaField } from "@/components/ui/field";
import { roleRowsFrom, type RoleRow } from "../template-input";
import { PROOF_METHODS } from "../../signings/_signing-form/signer-proof-select";
import { RolesEditor } from "./roles-editor";

export type TemplateValues = { name: string; description: string | null; signerAuthMethod: string; roles: RoleRow[] };

/**
 * Creates a template (then `organizations` lists where the person may: a select when more than one)
 * or edits one: name, description, how signers of its packages prove who they are, and signer roles
 * (each may have its own method), checked by the API's template schema.
 */
export function TemplateForm({
  action,
  idPrefix,
  initial,
  organizations,
  submitLabel,
  pendingLabel,
}: {
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  idPrefix: string;
  initial: TemplateValues;
  organizations?: { id: number; name: string }[];
  submitLabel: string;
  pendingLabel: string;
}) {
  const [state, formAction] = useActionState(action, { status: "idle" } as FormState);
  const values = state.status === "error" ? state.values : null;
  const errors = state.status === "error" ? state.fieldErrors : {};
  const roles = values ? roleRowsFrom(Object.entries(values)) : initial.roles;
  // A new key remounts the roles editor with the rows a failed post echoed (a post before hydration reloads with them).
  const rolesKey = values ? JSON.stringify(roles) : "initial";
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
      <div className="grid gap-4 md:grid-cols-2">
        <InputField id={`${idPrefix}-name`} name="name" label="Template name" required maxLength={200} defaultValue={values?.name ?? initial.name} error={errors.name} />
        <TextAreaField
          id={`${idPrefix}-description`}
          name="description"
          label="Description (optional)"
          rows={2}
          maxLength={2000}
          defaultValue={values?.description ?? initial.description ?? ""}
          error={errors.description}
        />
      </div>
      <SelectField
        id={`${idPrefix}-signer-auth-method`}
        name="signerAuthMethod"
        label="How signers prove who they are"
        hint="Packages created from this template start with it; the person creating a package can change it. An access code or a mobile number is entered for each package."
        defaultValue={values?.signerAuthMethod ?? initial.signerAuthMethod}
        error={errors.signerAuthMethod}
      >
        {PROOF_METHODS.map((m) => (
          <option key={m.value} value={m.value}>
            {m.label}
          </option>
        ))}
      </SelectField>
      <RolesEditor key={rolesKey} idPrefix={idPrefix} initial={roles} errors={errors} />
      <div className="flex flex-wrap items-center gap-4 border-t border-slate-200 pt-4">
        <SubmitButton pendingLabel={pendingLabel}>{submitLabel}</SubmitButton>
        <FormMessage state={state} id={`${idPrefix}-message`} />
      </div>
    </form>
  );
}
