"use client";

import { useEffect, useEffectEvent, useRef, type ReactNode } from "react";
import { buttonClass, type ButtonVariant } from "./button-class";

// Invoker commands open the dialog before hydration too (Chromium 135+); React does not type them yet.
const invoker = (id: string) => ({ command: "show-modal", commandfor: id }) as Record<string, string>;

const sizes = {
  md: "w-[calc(100%-2rem)] max-w-md p-6",
  lg: "w-[calc(100%-2rem)] max-w-lg p-6",
  // Wide content (the signature pad): on a phone it takes all but a narrow margin of the screen.
  xl: "w-[calc(100%-1rem)] max-w-xl p-5 sm:p-6",
} as const;

/**
 * A native modal <dialog> with its opener: focus moves into the dialog and stays there, Escape
 * closes it, and focus returns to the opener. `children` is the dialog's content (usually a form
 * whose cancel button has `formMethod="dialog"` or `value="cancel"`).
 *
 * `open` makes it controlled (shown while true; `onOpenChange` hears every opening and closing:
 * the opener, Escape, a cancel button, and an opening by the invoker command before hydration).
 * `openClassName` replaces the opener's button look where a page's buttons differ (the signer's
 * full-width buttons on a phone).
 */
export function Dialog({
  id,
  title,
  description,
  openLabel,
  openVariant = "secondary",
  openClassName,
  size = "lg",
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
  size?: keyof typeof sizes;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const firstSync = useRef(true);
  const openedBeforeHydration = useEffectEvent(() => onOpenChange?.(true));

  useEffect(() => {
    const dialog = dialogRef.current!;
    if (firstSync.current) {
      firstSync.current = false;
      // Open at hydration: the invoker command opened it before React ran. Keep it open and say so.
      if (dialog.open) {
        if (!open) openedBeforeHydration();
        return;
      }
    }
    if (open === undefined) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <>
      <button
        ref={openerRef}
        type="button"
        {...invoker(id)}
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
        className={`m-auto rounded-xl bg-white text-slate-900 shadow-xl backdrop:bg-slate-900/50 ${sizes[size]}`}
      >
        <h2 id={`${id}-title`} className={size === "xl" ? "text-xl font-semibold" : "text-lg font-semibold"}>
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
