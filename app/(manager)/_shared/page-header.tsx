import Link from "next/link";
import type { ReactNode } from "react";

export type Crumb = { href: string; label: string };

/** A console page's top: the trail back up (organization → company → location), the h1 and a short explanation. */
export function PageHeader({ crumbs = [], title, children }: { crumbs?: Crumb[]; title: ReactNode; children?: ReactNode }) {
  return (
    <div className="space-y-2">
      {crumbs.length > 0 ? (
        <nav aria-label="Breadcrumb">
          <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-700">
            {crumbs.map((crumb) => (
              <li key={crumb.href} className="flex items-center gap-1">
                <Link href={crumb.href} className="text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700">
                  {crumb.label}
                </Link>
                <span aria-hidden="true">/</span>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      {children ? <div className="max-w-3xl text-sm text-slate-700">{children}</div> : null}
    </div>
  );
}

/** A titled card section of a console page. */
export function Section({ id, title, children, actions }: { id: string; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** What an empty list says, and what to do about it. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-slate-300 bg-slate-50 p-6 text-sm text-slate-700">{children}</p>;
}
