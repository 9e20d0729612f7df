import Link from "next/link";
import type { AssignedSigning, HomeSigning } from "@/lib/signings/list-signings-for-home";
import { StatusBadge } from "./status-badge";
import { focusRing } from "@/components/ui/classes";
import { formatDate } from "@/lib/format";


const titleLinkClass =
  `text-blue-800 underline underline-offset-2 hover:text-blue-900 ${focusRing}`;

/** What the package is waiting for, from the signer's side. */
export function waitingLabel(item: AssignedSigning): string {
  const open = item.status === "sent" || item.status === "in_progress";
  if (item.myStatus === "declined") return "You declined";
  if (!open) return item.status === "completed" ? "Complete" : `No longer open (${item.status.replace("_", " ")})`;
  if (item.myStatus === "signed") return "You signed · waiting for others";
  if (item.waitingOnEarlier) return "Waiting for an earlier signer";
  return "Waiting for your signature";
}

function Title({ item, link }: { item: HomeSigning | AssignedSigning; link: boolean }) {
  return link ? (
    <Link href={`/signings/${item.id}`} className={titleLinkClass}>
      {item.title}
    </Link>
  ) : (
    <>{item.title}</>
  );
}

type Props = {
  caption: string;
  items: (HomeSigning | AssignedSigning)[];
  showMyStatus?: boolean;
  testId: string;
};

/**
 * Packages as a table on wider screens and as a stacked list on phones, where seven columns cannot
 * fit. Only one of the two is displayed; the other is `display: none` and so also absent from the
 * accessibility tree.
 */
export function SigningsTable({ caption, items, showMyStatus = false, testId }: Props) {
  return (
    <>
      <ul className="space-y-3 sm:hidden" aria-label={caption} data-testid={`${testId}-list`}>
        {items.map((item) => (
          <li key={item.id} data-signing-id={item.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <p className="font-medium text-slate-900">
              <Title item={item} link={showMyStatus} />
            </p>
            {showMyStatus && "myStatus" in item ? <p className="mt-1 text-sm font-medium text-slate-900">{waitingLabel(item)}</p> : null}
            <p className="mt-1 text-sm text-slate-700">
              {item.organizationName} · {item.locationName}
            </p>
            <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-700">
              <StatusBadge status={item.status} />
              {showMyStatus && "myStatus" in item ? (
                <span className="inline-flex items-center gap-1">
                  <span>You:</span>
                  <StatusBadge status={item.myStatus} />
                  {item.myRole === "co_signer" ? <span>(co-signer)</span> : null}
                </span>
              ) : null}
              <span className="tabular-nums">
                {item.signedCount} of {item.signerCount} signed
              </span>
            </div>
            <p className="mt-2 text-xs text-slate-600">
              Updated <time dateTime={item.updatedAt.toISOString()}>{formatDate(item.updatedAt)}</time>
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm sm:block">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3">Package</th>
            <th scope="col" className="px-4 py-3">Organization</th>
            <th scope="col" className="px-4 py-3">Location</th>
            <th scope="col" className="px-4 py-3">Status</th>
            {showMyStatus ? <th scope="col" className="px-4 py-3">Your status</th> : null}
            {showMyStatus ? <th scope="col" className="px-4 py-3">Waiting for</th> : null}
            <th scope="col" className="px-4 py-3">Signed</th>
            <th scope="col" className="px-4 py-3">Updated</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((item) => (
            <tr key={item.id} data-signing-id={item.id}>
              <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                <Title item={item} link={showMyStatus} />
              </th>
              <td className="px-4 py-3 text-slate-700">{item.organizationName}</td>
              <td className="px-4 py-3 text-slate-700">{item.locationName}</td>
              <td className="px-4 py-3"><StatusBadge status={item.status} /></td>
              {showMyStatus && "myStatus" in item ? (
                <td className="px-4 py-3">
                  <StatusBadge status={item.myStatus} />
                  <span className="sr-only">{item.myRole === "co_signer" ? " (co-signer)" : ""}</span>
                </td>
              ) : null}
              {showMyStatus && "myStatus" in item ? <td className="px-4 py-3 text-slate-900">{waitingLabel(item)}</td> : null}
              <td className="px-4 py-3 tabular-nums text-slate-700">
                {item.signedCount} of {item.signerCount}
              </td>
              <td className="whitespace-nowrap px-4 py-3 text-slate-700">
                <time dateTime={item.updatedAt.toISOString()}>{formatDate(item.updatedAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </>
  );
}

