import Link from "next/link";
import { StatusBadge } from "@/components/status-badge";
import { ButtonLink } from "@/components/ui/button-link";
import type { SignerProgress } from "@/lib/signings/list-signer-progress";
import type { SigningListRow } from "@/lib/signings/list-signings";
import { RemindForm } from "./remind-form";
import { SignerBadges } from "./signer-badges";
import { linkClass } from "@/components/ui/classes";
import { formatDate } from "@/lib/format";


export type ListRow = SigningListRow & { signers: SignerProgress[]; canWrite: boolean };

/** The action that fits the package's state; write actions only for those who may write there. */
function RowAction({ row }: { row: ListRow }) {
  if (row.canWrite && row.status === "draft") {
    return (
      <ButtonLink href={`/signings/${row.id}/edit`} variant="primary" className="px-3 py-1" aria-label={`Edit draft ${row.title}`}>
        Edit draft
      </ButtonLink>
    );
  }
  const view = (
    <ButtonLink href={`/signings/${row.id}`} className="px-3 py-1" aria-label={`View ${row.title}`}>
      View
    </ButtonLink>
  );
  if (row.canWrite && (row.status === "sent" || row.status === "in_progress")) {
    return (
      <div className="flex flex-wrap items-start gap-2">
        <RemindForm signingId={row.id} title={row.title} />
        {view}
      </div>
    );
  }
  return view;
}

export function SigningsListTable({ rows, caption, showOrganization }: { rows: ListRow[]; caption: string; showOrganization: boolean }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm" data-testid="signings-list">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3">Package</th>
            <th scope="col" className="px-4 py-3">Status</th>
            <th scope="col" className="px-4 py-3">Signers</th>
            <th scope="col" className="hidden px-4 py-3 lg:table-cell">Created</th>
            <th scope="col" className="px-4 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-signing-id={row.id} className="align-top">
              <th scope="row" className="min-w-44 max-w-xs px-4 py-3 font-normal">
                <Link
                  href={`/signings/${row.id}`}
                  className={linkClass}
                >
                  {row.title}
                </Link>
                <p className="mt-1 text-xs text-slate-700">
                  {row.locationName} · {row.companyName}
                  {showOrganization ? <span className="block text-slate-600">{row.organizationName}</span> : null}
                </p>
                {/* Below 1024 px the Created column is hidden; the date moves here. */}
                <p className="mt-1 text-xs text-slate-600 lg:hidden">
                  Created <time dateTime={row.createdAt.toISOString()}>{formatDate(row.createdAt)}</time>
                </p>
              </th>
              <td className="whitespace-nowrap px-4 py-3">
                <StatusBadge status={row.status} />
              </td>
              <td className="min-w-48 px-4 py-3">
                <SignerBadges signers={row.signers} />
              </td>
              <td className="hidden whitespace-nowrap px-4 py-3 text-slate-700 lg:table-cell">
                <time dateTime={row.createdAt.toISOString()}>{formatDate(row.createdAt)}</time>
              </td>
              <td className="px-4 py-3">
                <RowAction row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
