import type { ComponentProps, ReactNode } from "react";
import { Input, Label, Select, Textarea } from "./input";

type Common = { id: string; label: ReactNode; hint?: ReactNode; error?: string };

function describedBy(id: string, hint: ReactNode, error: string | undefined, extra?: string): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null, extra].filter(Boolean).join(" ") || undefined;
}

function FieldFrame({ id, label, hint, error, children }: Common & { children: ReactNode }) {
  return (
    <div className="space-y-1">
      <Label htmlFor={id}>{label}</Label>
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

/**
 * A labelled input; `error` is tied to it with aria-describedby and marks it invalid. An
 * `aria-invalid` the caller passes counts too (a form-level error that concerns this input).
 */
export function InputField({ id, label, hint, error, ...input }: Common & Omit<ComponentProps<"input">, "id">) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <Input id={id} {...input} aria-invalid={error ? true : input["aria-invalid"]} aria-describedby={describedBy(id, hint, error, input["aria-describedby"])} />
    </FieldFrame>
  );
}

export function SelectField({ id, label, hint, error, children, ...select }: Common & Omit<ComponentProps<"select">, "id">) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <Select id={id} {...select} aria-invalid={error ? true : select["aria-invalid"]} aria-describedby={describedBy(id, hint, error, select["aria-describedby"])}>
        {children}
      </Select>
    </FieldFrame>
  );
}

export function TextAreaField({ id, label, hint, error, ...textarea }: Common & Omit<ComponentProps<"textarea">, "id">) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <Textarea id={id} {...textarea} aria-invalid={error ? true : textarea["aria-invalid"]} aria-describedby={describedBy(id, hint, error, textarea["aria-describedby"])} />
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
