import Link from "next/link";
import type { SigningStatus } from "@/db/schema";
import type { SigningStatusCounts } from "@/lib/signings/count-signings-by-status";
import { listHref, type ListQuery } from "../list-view";
import { focusRing } from "@/components/ui/classes";

export const TABS: { status: SigningStatus | undefined; label: string }[] = [
  { status: "draft", label: "Draft" },
  { status: "sent", label: "Sent" },
  { status: "in_progress", label: "In progress" },
  { status: "completed", label: "Completed" },
  { status: "declined", label: "Declined" },
  { status: "cancelled", label: "Cancelled" },
  { status: "expired", label: "Expired" },
  { status: undefined, label: "All" },
];

/** Status tabs as links (a view is a URL), each with how many packages it holds under the current filters. */
export function StatusTabs({ query, counts }: { query: ListQuery; counts: SigningStatusCounts }) {
  return (
    <nav aria-label="Package status">
      <ul className="flex flex-wrap gap-1 border-b border-slate-200">
        {TABS.map((tab) => {
          const current = query.status === tab.status;
          const n = tab.status ? counts[tab.status] : counts.all;
          return (
            <li key={tab.label}>
              <Link
                href={listHref({ ...query, cursor: undefined, status: tab.status })}
                aria-current={current ? "page" : undefined}
                className={`-mb-px inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium ${focusRing} ${
                  current ? "border-blue-700 text-blue-800" : "border-transparent text-slate-700 hover:border-slate-400 hover:text-slate-900"
                }`}
              >
                {tab.label}
                <span className={`rounded-full px-1.5 text-xs tabular-nums ${current ? "bg-blue-100 text-blue-900" : "bg-slate-100 text-slate-800"}`}>
                  {n.toLocaleString("en-US")}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
