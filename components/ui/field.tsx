import type { ComponentProps, ReactNode } from "react";

const controlClass =
  "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus:outline-2 focus:outline-offset-0 focus:outline-blue-600 aria-[invalid=true]:border-red-700 disabled:bg-slate-100";

type Common = { id: string; label: ReactNode; hint?: ReactNode; error?: string };

function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

function FieldFrame({ id, label, hint, error, children }: Common & { children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input; `error` is tied to it with aria-describedby and marks it invalid. */
export function InputField({ id, label, hint, error, className = "", ...input }: Common & Omit<ComponentProps<"input">, "id">) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <input id={id} {...input} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} className={`${controlClass} ${className}`} />
    </FieldFrame>
  );
}

export function SelectField({ id, label, hint, error, className = "", children, ...select }: Common & Omit<ComponentProps<"select">, "id">) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <select id={id} {...select} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} className={`${controlClass} ${className}`}>
        {children}
      </select>
    </FieldFrame>
  );
}

export function TextAreaField({ id, label, hint, error, className = "", ...textarea }: Common & Omit<ComponentProps<"textarea">, "id">) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <textarea id={id} {...textarea} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} className={`${controlClass} ${className}`} />
    </FieldFrame>
  );
}

/**
 * The form-level message of a `FormState`: a polite live region that is always in the DOM (so the
 * announcement is heard), red for errors, green for success.
 */
export function FormMessage({ state, id }: { id?: string; state: { status: string; message?: string } }) {
  const tone = state.status === "error" ? "text-red-800" : "text-green-800";
  return (
    <p id={id} role="status" aria-live="polite" className={`text-sm font-medium empty:hidden ${tone}`}>
      {state.status !== "idle" && state.message ? state.message : ""}
    </p>
  );
}
