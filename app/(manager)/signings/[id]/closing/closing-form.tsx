"use client";

import { useActionState, type ReactNode } from "react";
import { SubmitButton } from "@/components/ui/button";
import type { ButtonVariant } from "@/components/ui/button-class";
import { FormMessage } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import {
  acceptScansAction,
  appointmentAction,
  assignPageAction,
  executionModesAction,
  convertToInkAction,
  discardPageAction,
  issueAgentLinkAction,
  reviewScanAction,
  revokeAgentLinkAction,
  uploadScansAction,
} from "./actions";

const IDLE: FormState = { status: "idle" };

const ACTIONS = {
  upload: uploadScansAction,
  accept: acceptScansAction,
  assign: assignPageAction,
  discard: discardPageAction,
  review: reviewScanAction,
  convert: convertToInkAction,
  appointment: appointmentAction,
  modes: executionModesAction,
  issueAgentLink: issueAgentLinkAction,
  revokeAgentLink: revokeAgentLinkAction,
};

/**
 * One closing step as a form posting to its server action (it works before hydration); the answer,
 * or the refusal, is read out in the form's live region. `children` are the form's fields.
 */
export function ClosingForm({
  action,
  signingId,
  label,
  pendingLabel,
  variant = "primary",
  children,
  className = "",
  multipart = false,
}: {
  action: keyof typeof ACTIONS;
  signingId: string;
  label: ReactNode;
  pendingLabel: string;
  variant?: ButtonVariant;
  children?: ReactNode;
  className?: string;
  multipart?: boolean;
}) {
  const [state, formAction] = useActionState(ACTIONS[action], IDLE);
  return (
    <form action={formAction} encType={multipart ? "multipart/form-data" : undefined} className={`space-y-2 ${className}`}>
      <input type="hidden" name="signingId" value={signingId} />
      {children}
      <SubmitButton variant={variant} pendingLabel={pendingLabel}>
        {label}
      </SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
