import type { ComponentProps } from "react";
import { controlClass } from "./classes";

/**
 * The bare form controls in the house style. Give each a `<Label>` (or use `InputField` and its
 * siblings in `./field`, which add the label, hint and error wiring).
 */
export function Input({ className = "", ...input }: ComponentProps<"input">) {
  return <input {...input} className={`${controlClass} ${className}`.trim()} />;
}

export function Select({ className = "", ...select }: ComponentProps<"select">) {
  return <select {...select} className={`${controlClass} ${className}`.trim()} />;
}

export function Textarea({ className = "", ...textarea }: ComponentProps<"textarea">) {
  return <textarea {...textarea} className={`${controlClass} ${className}`.trim()} />;
}

/** A control's visible label. */
export function Label({ className = "", ...label }: ComponentProps<"label">) {
  return <label {...label} className={`block text-sm font-medium text-slate-900 ${className}`.trim()} />;
}
