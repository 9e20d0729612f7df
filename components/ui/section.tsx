import type { ReactNode } from "react";

/**
 * A titled card section of a page. `id` is the h2's id (the section is labelled by it);
 * `description` is a line under the title, `actions` sit to the title's right. `compact` narrows
 * the padding on wider screens (the package detail's side-by-side cards).
 */
export function Section({
  id,
  title,
  description,
  actions,
  compact = false,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  compact?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={`min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm ${compact ? "sm:p-5" : "sm:p-6"}`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {description ? <div className="mt-1 text-sm text-slate-700">{description}</div> : null}
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

/** What an empty list says, and what to do about it. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-slate-300 bg-slate-50 p-6 text-sm text-slate-700">{children}</p>;
}
