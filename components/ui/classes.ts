/**
 * Shared class strings of the design system. A plain module, not a client one, so server
 * components can use them too. Tailwind finds the classes because they are written out here.
 */

/** The keyboard focus ring every interactive element shows (links, buttons, tabs, custom controls). */
export const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";

/** An inline text link: underlined, darker on hover. */
export const linkClass = `font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900 ${focusRing}`;

/** A quieter link for lists and breadcrumbs: underlined only on hover. Add `font-medium` for a row's main link. */
export const subtleLinkClass = `text-blue-800 underline-offset-2 hover:underline ${focusRing}`;

/** The look of text inputs, selects and text areas. */
export const controlClass =
  "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus:outline-2 focus:outline-offset-0 focus:outline-blue-600 aria-[invalid=true]:border-red-700 disabled:bg-slate-100";
