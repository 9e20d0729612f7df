import type { ReactNode } from "react";

/** One numbered step of the package form (1 Where, 2 What, 3 Who signs, 4 Documents, 5 Closing appointment). */
export function FormSection({ id, title, step, children }: { id: string; title: string; step: number; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        <span className="mr-2 inline-flex h-6 w-6 items-center justify-center rounded-full bg-slate-200 text-sm" aria-hidden="true">
          {step}
        </span>
        {title}
      </h2>
      {children}
    </section>
  );
}
