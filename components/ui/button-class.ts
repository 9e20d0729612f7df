export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";

const base =
  "inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-blue-700 text-white shadow-sm hover:bg-blue-800 focus-visible:outline-blue-700",
  secondary: "border border-slate-400 bg-white text-slate-900 hover:bg-slate-50 focus-visible:outline-blue-700",
  danger: "bg-red-700 text-white shadow-sm hover:bg-red-800 focus-visible:outline-red-700",
  ghost: "text-blue-800 hover:bg-slate-100 focus-visible:outline-blue-700",
};

/**
 * Classes of a button, for elements that must look like one (a link, a summary). A plain module, not
 * a client one: server components call it too (a function exported by a "use client" module is a
 * client reference on the server and cannot be called there).
 */
export function buttonClass(variant: ButtonVariant = "primary", extra = ""): string {
  return `${base} ${variants[variant]} ${extra}`.trim();
}
