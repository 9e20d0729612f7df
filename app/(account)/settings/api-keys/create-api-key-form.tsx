"use client";

import { useActionState, useState } from "react";
import { createApiKeyAction, type CreateApiKeyState } from "./actions";
import { controlClass, focusRing } from "@/components/ui/classes";

export function CreateApiKeyForm() {
  const [state, formAction, pending] = useActionState<CreateApiKeyState, FormData>(createApiKeyAction, { status: "idle" });
  // React resets the form after a successful action; "Copied" belongs to one key only.
  const [copiedKey, setCopiedKey] = useState<string>();
  const copied = state.status === "created" && copiedKey === state.key;

  async function copy(key: string) {
    try {
      await navigator.clipboard.writeText(key);
      setCopiedKey(key);
    } catch {
      setCopiedKey(undefined);
    }
  }

  return (
    <div className="space-y-4">
      <form action={formAction} className="grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <div className="space-y-1">
          <label htmlFor="api-key-name" className="block text-sm font-medium text-slate-900">
            Key name
          </label>
          <input
            id="api-key-name"
            name="name"
            required
            maxLength={100}
            placeholder="e.g. Nightly export script"
            aria-invalid={state.status === "error" ? true : undefined}
            aria-describedby={state.status === "error" ? "api-key-error" : undefined}
            className={controlClass}
          />
        </div>
        <div className="space-y-1">
          <label htmlFor="api-key-expiry" className="block text-sm font-medium text-slate-900">
            Expires
          </label>
          <select id="api-key-expiry" name="expiresInDays" defaultValue="90" className={controlClass}>
            <option value="30">In 30 days</option>
            <option value="90">In 90 days</option>
            <option value="365">In 1 year</option>
            <option value="never">Never</option>
          </select>
        </div>
        <button
          type="submit"
          disabled={pending}
          className={`rounded-md bg-blue-700 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-blue-800 ${focusRing} disabled:opacity-70`}
        >
          {pending ? "Creating…" : "Create key"}
        </button>
      </form>

      <div aria-live="polite">
        {state.status === "error" ? (
          <p id="api-key-error" role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            {state.message}
          </p>
        ) : null}
        {state.status === "created" ? (
          <div className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4" data-testid="new-api-key">
            <p className="text-sm font-medium text-emerald-950">
              Key “{state.name}” created. Copy it now: it will not be shown again.
            </p>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              <label htmlFor="new-api-key-value" className="sr-only">
                New API key
              </label>
              <input
                id="new-api-key-value"
                readOnly
                value={state.key}
                onFocus={(e) => e.currentTarget.select()}
                className="w-full rounded-md border border-emerald-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 focus:outline-2 focus:outline-blue-600"
              />
              <button
                type="button"
                onClick={() => copy(state.key)}
                className="shrink-0 rounded-md border border-emerald-400 bg-white px-3 py-2 text-sm font-medium text-emerald-950 hover:bg-emerald-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
              >
                {copied ? "Copied" : "Copy"}
              </button>
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
}
