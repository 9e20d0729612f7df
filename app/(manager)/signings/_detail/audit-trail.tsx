import type { ManagerSigningPage } from "@/lib/views/get-manager-signing-page";
import { formatDateTime } from "@/lib/format";
import { auditActionLabel, auditEntrySummary, browserOf } from "./format";

type Audit = NonNullable<ManagerSigningPage["audit"]>;

/** The chain's verdict in words, never colour alone. */
function Verdict({ audit }: { audit: Audit }) {
  if (audit.verified) {
    return (
      <p data-testid="audit-verdict" className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900">
        <span aria-hidden="true">✓ </span>Verified: {audit.total} {audit.total === 1 ? "entry" : "entries"}, unbroken.
      </p>
    );
  }
  const broken = audit.brokenAt;
  return (
    <div data-testid="audit-verdict" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
      <p className="font-semibold">
        <span aria-hidden="true">✗ </span>Not verified: the chain breaks at entry {broken?.position ?? "?"} of {audit.total}
        {broken?.action ? ` (${auditActionLabel(broken.action)}, ${formatDateTime(broken.at)})` : ""}.
      </p>
      <p className="mt-1">
        That entry was changed, or an entry before it was removed or reordered. Entries up to the one before it check out; treat it and
        everything after it as unproven and tell your administrator.
      </p>
    </div>
  );
}

/** The package's audit trail: who did what, when, from which IP and browser, with the chain's verdict. */
export function AuditTrail({ audit, pageHref }: { audit: Audit; pageHref: (cursor: string) => string }) {
  const first = audit.entries[0]?.position ?? 0;
  const last = audit.entries.at(-1)?.position ?? 0;
  return (
    <div className="space-y-3">
      <Verdict audit={audit} />
      {audit.entries.length === 0 ? (
        <p className="text-sm text-slate-700">No entries yet.</p>
      ) : (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Audit trail entries">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <caption className="sr-only">
              Audit trail, entries {first} to {last} of {audit.total}, oldest first
            </caption>
            <thead className="border-b border-slate-300 text-xs uppercase tracking-wide text-slate-700">
              <tr>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  #
                </th>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  Time
                </th>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  Who
                </th>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  Action
                </th>
                <th scope="col" className="py-2 pr-3 font-semibold">
                  IP address
                </th>
                <th scope="col" className="py-2 font-semibold">
                  Browser
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {audit.entries.map((entry) => {
                const breaks = audit.brokenAt?.id === entry.id;
                const summary = auditEntrySummary(entry.action, entry.recorded);
                return (
                  <tr key={entry.id} className={breaks ? "bg-red-50" : undefined}>
                    <td className="py-2 pr-3 align-top text-slate-700 tabular-nums">{entry.position}</td>
                    <td className="py-2 pr-3 align-top whitespace-nowrap text-slate-800">
                      <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                    </td>
                    <td className="py-2 pr-3 align-top text-slate-900">{entry.actorName ?? "System"}</td>
                    <td className="py-2 pr-3 align-top text-slate-900">
                      {auditActionLabel(entry.action)}
                      {entry.subject ? <span className="text-slate-700"> · {entry.subject}</span> : null}
                      {summary ? <span className="block text-slate-700">{summary}</span> : null}
                      {breaks ? <strong className="block text-red-800">The chain breaks here</strong> : null}
                    </td>
                    <td className="py-2 pr-3 align-top font-mono text-xs text-slate-800">{entry.ipAddress ?? "—"}</td>
                    <td className="py-2 align-top text-slate-800" title={entry.userAgent ?? undefined}>
                      {browserOf(entry.userAgent) ?? "—"}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {audit.nextCursor || first > 1 ? (
        <p className="text-sm text-slate-700">
          Entries {first}–{last} of {audit.total}.{" "}
          {first > 1 ? (
            <a href={pageHref("")} className="font-medium text-blue-800 underline underline-offset-2">
              First entries
            </a>
          ) : null}
          {first > 1 && audit.nextCursor ? " · " : null}
          {audit.nextCursor ? (
            <a href={pageHref(audit.nextCursor)} className="font-medium text-blue-800 underline underline-offset-2">
              Next entries
            </a>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
