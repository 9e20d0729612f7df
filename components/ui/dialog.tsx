"use client";

import { useRef, type ReactNode } from "react";
import { buttonClass, type ButtonVariant } from "./button-class";

// Invoker commands open the dialog before hydration too (Chromium 135+); React does not type them yet.
const invoker = (id: string) => ({ command: "show-modal", commandfor: id }) as Record<string, string>;

/**
 * A native modal <dialog> with its opener: focus moves into the dialog and stays there, Escape
 * closes it, and focus returns to the opener. `children` is the dialog's content (usually a form
 * whose cancel button has `formMethod="dialog"` or `value="cancel"`).
 */
export function Dialog({
  id,
  title,
  description,
  openLabel,
  openVariant = "secondary",
  children,
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  openLabel: ReactNode;
  openVariant?: ButtonVariant;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={openerRef}
        type="button"
        {...invoker(id)}
        onClick={(event) => {
          event.preventDefault();
          dialogRef.current?.showModal();
        }}
        className={buttonClass(openVariant)}
      >
        {openLabel}
      </button>
      <dialog
        ref={dialogRef}
        id={id}
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-description` : undefined}
        onClose={() => openerRef.current?.focus()}
        className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        {description ? (
          <div id={`${id}-description`} className="mt-2 text-sm text-slate-700">
            {description}
          </div>
        ) : null}
        <div className="mt-4">{children}</div>
      </dialog>
    </>
  );
}

/** Closes the dialog it is in. */
export function DialogCloseButton({ children }: { children: ReactNode }) {
  return (
    <button type="button" onClick={(event) => event.currentTarget.closest("dialog")?.close()} className={buttonClass("secondary")}>
      {children}
    </button>
  );
}
