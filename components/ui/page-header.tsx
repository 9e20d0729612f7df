import Link from "next/link";
import type { ReactNode } from "react";
import { subtleLinkClass } from "./classes";

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
                <Link href={crumb.href} className={subtleLinkClass}>
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
