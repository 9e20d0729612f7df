"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { createEndpointAction, type SecretResult } from "../actions";
import { SecretOnce } from "./secret-once";

/**
 * Adds an endpoint: URL, description and the event types it receives (none ticked = all). Posts
 * natively; on success the signing secret is shown once beside the form.
 */
export function AddEndpointForm({ organizationId, eventTypes }: { organizationId: number; eventTypes: { type: string; description: string }[] }) {
  const [state, action] = useActionState<FormState<SecretResult>, FormData>(createEndpointAction, { status: "idle" });
  const values = state.status === "error" ? state.values : {};
  const errors = state.status === "error" ? state.fieldErrors : {};
  return (
    <form
      action={action}
      key={state.status === "error" ? `error:${JSON.stringify(values)}:${state.message}` : `ok:${state.status === "ok" ? (state.data?.secret ?? "") : ""}`}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby="add-endpoint-heading"
    >
      <h2 id="add-endpoint-heading" className="text-lg font-semibold text-slate-900">
        Add an endpoint
      </h2>
      <input type="hidden" name="organizationId" value={organizationId} />
      <div className="grid gap-4 md:grid-cols-2">
        <InputField id="endpoint-url" name="url" type="url" label="URL" required placeholder="https://los.example.com/hooks" defaultValue={values.url} error={errors.url} />
        <InputField id="endpoint-description" name="description" label="Description (optional)" maxLength={500} defaultValue={values.description} error={errors.description} />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-900">Events it receives (none ticked: every event)</legend>
        <div className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {eventTypes.map((e) => (
            <label key={e.type} className="flex items-start gap-2 text-sm text-slate-800" title={e.description}>
              <input type="checkbox" name="eventTypes" value={e.type} className="mt-1" />
              <span>
                <code>{e.type}</code>
              </span>
            </label>
          ))}
        </div>
        {errors.eventTypes ? <p className="text-sm text-red-800">{errors.eventTypes}</p> : null}
      </fieldset>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pendingLabel="Adding…">Add endpoint</SubmitButton>
        <FormMessage state={state} />
      </div>
      {state.status === "ok" && state.data ? <SecretOnce secret={state.data.secret} /> : null}
    </form>
  );
}
