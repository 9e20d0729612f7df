"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { Dialog, DialogCloseButton } from "@/components/ui/dialog";
import { FormMessage } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { changeRoleAction, removeMemberAction } from "../actions";

const ROLE_OPTIONS = [
  { value: "manager", label: "Manager" },
  { value: "org_admin", label: "Organization admin" },
  { value: "signer", label: "Signer" },
];

/** A member's role select with its own Save, and Remove behind a confirmation; results in a live region per row. */
export function MemberActions({ membershipId, name, role }: { membershipId: string; name: string; role: string }) {
  const [roleState, roleAction] = useActionState<FormState, FormData>(changeRoleAction, { status: "idle" });
  const [removeState, removeAction] = useActionState<FormState, FormData>(removeMemberAction, { status: "idle" });
  const selectId = `role-${membershipId}`;
  const removeError = removeState.status === "error" ? removeState : ({ status: "idle" } as const);
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <form action={roleAction} className="flex items-center gap-2">
          <input type="hidden" name="membershipId" value={membershipId} />
          <label htmlFor={selectId} className="sr-only">
            Role of {name}
          </label>
          <select
            id={selectId}
            name="role"
            defaultValue={role}
            key={`${role}:${roleState.status === "error" ? roleState.message : ""}`}
            className="rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 focus:outline-2 focus:outline-blue-600"
          >
            {ROLE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <SubmitButton variant="secondary" pendingLabel="Saving…" className="px-3 py-1.5" aria-label={`Save role of ${name}`}>
            Save
          </SubmitButton>
        </form>
        <Dialog
          id={`remove-${membershipId}`}
          openLabel={
            <span>
              Remove<span className="sr-only"> {name}</span>
            </span>
          }
          openVariant="ghost"
          title={`Remove ${name}?`}
          description={<p>They lose this role in the organization at once. Their signatures and the audit trail stay.</p>}
        >
          <form action={removeAction} className="space-y-3">
            <input type="hidden" name="membershipId" value={membershipId} />
            <FormMessage state={removeError} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <DialogCloseButton>Keep</DialogCloseButton>
              <SubmitButton variant="danger" pendingLabel="Removing…">
                Remove member
              </SubmitButton>
            </div>
          </form>
        </Dialog>
      </div>
      <FormMessage state={roleState} />
    </div>
  );
}
