import { focusRing } from "./classes";

/**
 * The full-width controls of the single-card pages a link holder lands on (the borrower's access
 * page, the settlement agent's link page): large touch targets in the lender's brand colour.
 */
export const primaryButton =
  `block w-full rounded-md bg-[var(--brand-color,#1d4ed8)] px-4 py-3 text-center text-base font-semibold text-white shadow-sm hover:brightness-90 ${focusRing}`;
export const secondaryButton =
  `block w-full rounded-md border border-slate-400 bg-white px-4 py-3 text-center text-base font-semibold text-slate-900 hover:bg-slate-50 ${focusRing}`;
export const inputClass =
  "block w-full rounded-md border border-slate-400 bg-white px-3 py-3 text-lg tracking-widest text-slate-900 shadow-sm focus:border-blue-600 focus:outline-2 focus:outline-offset-0 focus:outline-blue-600 aria-[invalid=true]:border-red-700";
