import type { ComponentProps, ReactNode } from "react";

const inputClass =
  "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus:outline-2 focus:outline-offset-0 focus:outline-blue-600 aria-[invalid=true]:border-red-700";

type TextFieldProps = Omit<ComponentProps<"input">, "className"> & { id: string; label: ReactNode; hint?: ReactNode };

/** A labelled input in the app's form style; `hint` renders below it (point `aria-describedby` at it). */
export function TextField({ label, hint, ...input }: TextFieldProps) {
  return (
    <div className="space-y-1">
      <label htmlFor={input.id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <input {...input} className={inputClass} />
      {hint}
    </div>
  );
}

/** The form's primary button; disabled and relabelled while the submission is pending. */
export function SubmitButton({ pending, pendingLabel, children }: { pending: boolean; pendingLabel: ReactNode; children: ReactNode }) {
  return (
    <button
      type="submit"
      disabled={pending}
      aria-disabled={pending}
      className="w-full rounded-md bg-blue-700 px-4 py-2.5 text-base font-semibold text-white shadow-sm hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-wait disabled:opacity-70"
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
