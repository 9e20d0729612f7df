"use client";

import { useActionState, useEffect, type ReactNode } from "react";
import type { FormState } from "@/app/_lib/validated-action";
import { SubmitButton } from "@/components/ui/button";
import { Dialog, DialogCloseButton } from "@/components/ui/dialog";
import { FormMessage } from "@/components/ui/field";

/**
 * "Delete …" behind a confirmation dialog. The action redirects away on success; a refusal (the
 * API's conflict message, e.g. a location still used by packages) closes the dialog and is announced
 * next to the button that opened it, where focus returns.
 */
export function DeleteDialogForm({
  id,
  title,
  description,
  openLabel,
  confirmLabel,
  action,
}: {
  id: string;
  title: ReactNode;
  description: ReactNode;
  openLabel: string;
  confirmLabel: string;
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
}) {
  const [state, formAction] = useActionState(action, { status: "idle" } as FormState);
  useEffect(() => {
    if (state.status === "error") (document.getElementById(id) as HTMLDialogElement | null)?.close();
  }, [state, id]);
  return (
    <div className="space-y-2">
      <Dialog id={id} title={title} description={description} openLabel={openLabel} openVariant="danger">
        <form action={formAction} className="flex flex-wrap justify-end gap-3">
          <DialogCloseButton>Cancel</DialogCloseButton>
          <SubmitButton variant="danger" pendingLabel="Deleting…">
            {confirmLabel}
          </SubmitButton>
        </form>
      </Dialog>
      <FormMessage state={state} id={`${id}-message`} />
    </div>
  );
}
