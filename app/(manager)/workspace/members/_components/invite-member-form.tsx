"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField, SelectField } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { inviteMemberAction } from "../actions";

export type ScopeOption = { value: string; label: string };

/**
 * Invite by email with a role and a scope. Posts natively (works before hydration); on an error the
 * form is re-rendered with what was typed and the message next to the field it concerns.
 */
export function InviteMemberForm({ organizationId, scopes }: { organizationId: number; scopes: ScopeOption[] }) {
  const [state, action] = useActionState<FormState, FormData>(inviteMemberAction, { status: "idle" });
  const values = state.status === "error" ? state.values : {};
  const errors = state.status === "error" ? state.fieldErrors : {};
  return (
    <form
      action={action}
      key={state.status === "error" ? `error:${JSON.stringify(values)}:${state.message}` : `ok:${state.status === "ok" ? state.message : ""}`}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby="invite-heading"
    >
      <h2 id="invite-heading" className="text-lg font-semibold text-slate-900">
        Invite a member
      </h2>
      <input type="hidden" name="organizationId" value={organizationId} />
      <div className="grid gap-4 md:grid-cols-2">
        <InputField id="invite-email" name="email" type="email" label="Email" required autoComplete="off" defaultValue={values.email} error={errors.email} />
        <InputField id="invite-name" name="name" label="Name (optional)" autoComplete="off" maxLength={200} defaultValue={values.name} error={errors.name} />
        <SelectField id="invite-role" name="role" label="Role" defaultValue={values.role ?? "manager"} error={errors.role}>
          <option value="manager">Manager: runs packages</option>
          <option value="org_admin">Organization admin: also members, settings, billing</option>
          <option value="signer">Signer: signs what is sent to them</option>
        </SelectField>
        <SelectField
          id="invite-scope"
          name="scope"
          label="Where"
          hint="A manager limited to a company or a location sees only its packages."
          defaultValue={values.scope ?? "organization"}
          error={errors.companyId ?? errors.locationId}
        >
          {scopes.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pendingLabel="Sending invitation…">Send invitation</SubmitButton>
        <FormMessage state={state} />
      </div>
    </form>
  );
}
