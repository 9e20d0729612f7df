"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { buttonClass, type ButtonVariant } from "./button-class";

// Invoker commands open the dialog before hydration too (Chromium 135+); React does not type them yet.
const invoker = (id: string) => ({ command: "show-modal", commandfor: id }) as Record<string, string>;

/**
 * A native modal <dialog> with its opener: focus moves into the dialog and stays there, Escape
 * closes it, and focus returns to the opener. `children` is the dialog's content (usually a form
 * whose cancel button has `formMethod="dialog"` or `value="cancel"`).
 *
 * `open` makes it controlled: shown while true, and `onOpenChange` hears each opening and closing
 * (the opener, Escape, a cancel button). A controlled dialog opens through React only, not by the
 * invoker command before hydration: its content is React's to render. `openClassName` replaces the
 * opener's button look where a page's buttons differ (the signer's full-width buttons on a phone);
 * `className` sets the box's width and padding.
 */
export function Dialog({
  id,
  title,
  description,
  openLabel,
  openVariant = "secondary",
  openClassName,
  className = "w-[calc(100%-2rem)] max-w-lg p-6",
  open,
  onOpenChange,
  children,
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  openLabel: ReactNode;
  openVariant?: ButtonVariant;
  openClassName?: string;
  className?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current!;
    if (open && !dialog.open) dialog.showModal();
    else if (open === false && dialog.open) dialog.close();
  }, [open]);

  return (
    <>
      <button
        ref={openerRef}
        type="button"
        {...(open === undefined ? invoker(id) : null)}
        onClick={(event) => {
          event.preventDefault();
          dialogRef.current?.showModal();
          onOpenChange?.(true);
        }}
        className={openClassName ?? buttonClass(openVariant)}
      >
        {openLabel}
      </button>
      <dialog
        ref={dialogRef}
        id={id}
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-description` : undefined}
        onClose={() => {
          openerRef.current?.focus();
          onOpenChange?.(false);
        }}
        className={`m-auto rounded-xl bg-white text-slate-900 shadow-xl backdrop:bg-slate-900/50 ${className}`}
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
