"use client";

import type { ComponentProps, ReactNode } from "react";
import { useFormStatus } from "react-dom";
import { buttonClass, type ButtonSize, type ButtonVariant } from "./button-class";

type ButtonProps = ComponentProps<"button"> & { variant?: ButtonVariant; size?: ButtonSize };

export function Button({ variant = "primary", size = "md", className = "", type = "button", ...props }: ButtonProps) {
  return <button type={type} {...props} className={buttonClass(variant, className, size)} />;
}

/**
 * A form's submit button: disabled and relabelled while its form is being submitted. `pending`
 * overrides the form status for a form that submits from its own handler (no form action).
 */
export function SubmitButton({
  variant = "primary",
  size = "md",
  pendingLabel,
  pending: pendingOverride,
  children,
  className = "",
  ...props
}: Omit<ButtonProps, "type"> & { pendingLabel: ReactNode; pending?: boolean }) {
  const status = useFormStatus();
  const pending = pendingOverride ?? status.pending;
  return (
    <button type="submit" {...props} disabled={pending || props.disabled} aria-disabled={pending || undefined} className={buttonClass(variant, className, size)}>
      {pending ? pendingLabel : children}
    </button>
  );
}
