"use client";

import Link from "next/link";
import type { ComponentProps, ReactNode } from "react";
import { useFormStatus } from "react-dom";
import { buttonClass, type ButtonVariant } from "./button-class";

type ButtonProps = ComponentProps<"button"> & { variant?: ButtonVariant };

export function Button({ variant = "primary", className = "", type = "button", ...props }: ButtonProps) {
  return <button type={type} {...props} className={buttonClass(variant, className)} />;
}

/** A form's submit button: disabled and relabelled while its form is being submitted. */
export function SubmitButton({
  variant = "primary",
  pendingLabel,
  children,
  className = "",
  ...props
}: Omit<ButtonProps, "type"> & { pendingLabel: ReactNode }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" {...props} disabled={pending || props.disabled} aria-disabled={pending || undefined} className={buttonClass(variant, className)}>
      {pending ? pendingLabel : children}
    </button>
  );
}

export function ButtonLink({ variant = "secondary", className = "", ...props }: ComponentProps<typeof Link> & { variant?: ButtonVariant }) {
  return <Link {...props} className={buttonClass(variant, className)} />;
}
