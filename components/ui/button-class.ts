import { focusRing } from "./classes";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";
/** `md` for console pages, `lg` for a form's single full-width call to action (sign in, set password). */
export type ButtonSize = "md" | "lg";

const base = "inline-flex items-center justify-center gap-2 rounded-md font-semibold disabled:cursor-not-allowed disabled:opacity-60";

const sizes: Record<ButtonSize, string> = {
  md: "px-4 py-2 text-sm",
  lg: "px-4 py-2.5 text-base",
};

const variants: Record<ButtonVariant, string> = {
  // A lender's brand colour (`--brand-color`, set on borrower pages; checked for 4.5:1 with white) or blue-700.
  primary: `bg-[var(--brand-color,#1d4ed8)] text-white shadow-sm hover:brightness-90 ${focusRing}`,
  secondary: `border border-slate-400 bg-white text-slate-900 hover:bg-slate-50 ${focusRing}`,
  // The ring takes the button's own colour: blue on red would read as a second, unrelated outline.
  danger: "bg-red-700 text-white shadow-sm hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700",
  ghost: `text-blue-800 hover:bg-slate-100 ${focusRing}`,
};

/**
 * Classes of a button, for elements that must look like one (a link, a summary). A plain module, not
 * a client one: server components call it too (a function exported by a "use client" module is a
 * client reference on the server and cannot be called there).
 */
export function buttonClass(variant: ButtonVariant = "primary", extra = "", size: ButtonSize = "md"): string {
  return `${base} ${sizes[size]} ${variants[variant]} ${extra}`.trim();
}
