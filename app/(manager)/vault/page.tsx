import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { formatDateTime } from "@/lib/format";
import { getControlHistory, listMyVaultOrganizations, listVaultRecords, type VaultRecordView } from "@/lib/transferable-records/get-vault-record";
import { requirePrincipal } from "../../_lib/require-principal";
import { RecordControlForms } from "./_components/record-control-forms";

export const metadata: Metadata = { title: "eVault" };

const ACTIONS: Record<string, string> = {
  established: "Authoritative copy established",
  transfer_offered: "Transfer offered",
  transfer_accepted: "Transfer accepted",
  transfer_declined: "Transfer declined",
  transfer_withdrawn: "Transfer withdrawn",
  pledged: "Pledged",
  released: "Pledge released",
  paper_out: "Converted to paper",
};

/**
 * The eVault: the transferable records the admin's organizations control, those offered to them and
 * those pledged to them, each with its control history and the changes the organization may make.
 */
export default async function VaultPage() {
  const { db, principal } = await requirePrincipal("/vault");
  const organizations = await listMyVaultOrganizations(db, principal);
  const records = await listVaultRecords(db, { principal });
  const withHistory = await Promise.all(records.map(async (r) => ({ ...r, history: await getControlHistory(db, r.id) })));
  const groups: { key: VaultRecordView["yourRole"]; title: string; empty: string }[] = [
    { key: "offered", title: "Offered to you", empty: "No transfer is waiting for your answer." },
    { key: "controller", title: "Records you control", empty: "Your organization controls no transferable record yet." },
    { key: "pledgee", title: "Pledged to you", empty: "No record is pledged to your organization." },
  ];

  return (
    <div className="space-y-6">
      <PageHeader title="eVault" />
      <p className="max-w-3xl text-slate-700">
        Transferable records (retail installment contracts, promissory notes) whose sealed PDF is the single authoritative copy. Control moves only when the
        receiving organization accepts; every change is in the record&rsquo;s control log.{" "}
        <Link href="/verify" className="text-blue-800 underline">
          Anyone holding a copy can check it at /verify
        </Link>
        .
      </p>
      {organizations.length === 0 ? (
        <p className="text-slate-700">The eVault is for organization administrators.</p>
      ) : (
        <p className="text-sm text-slate-700" data-testid="vault-organization-ids">
          To receive a transfer, give the sender your organization&rsquo;s identifier:{" "}
          {organizations.map((o, i) => (
            <span key={o.id}>
              {i > 0 ? ", " : null}
              <code className="rounded bg-slate-100 px-1 font-mono text-slate-900">{o.slug}</code> ({o.name})
            </span>
          ))}
          .
        </p>
      )}
      {groups.map((group) => {
        const rows = withHistory.filter((r) => r.yourRole === group.key);
        return (
          <section key={group.key} aria-labelledby={`vault-${group.key}`} className="space-y-3">
            <h2 id={`vault-${group.key}`} className="text-lg font-semibold text-slate-900">
              {group.title}
            </h2>
            {rows.length === 0 ? (
              <p className="text-slate-700">{group.empty}</p>
            ) : (
              <ul className="space-y-3">
                {rows.map((r) => (
                  <li key={r.id} data-testid="vault-record" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <div>
                        <p className="font-medium text-slate-900">{r.documentName}</p>
                        <p className="text-sm text-slate-700">{r.packageTitle}</p>
                      </div>
                      <p className="text-sm text-slate-800">
                        {r.status === "paper_out" ? "Converted to paper" : <>Controlled by <span className="font-medium">{r.controller.name}</span></>}
                        {r.pendingTransferee ? <> · offered to {r.pendingTransferee.name}</> : null}
                        {r.pledgee ? <> · pledged to {r.pledgee.name}</> : null}
                      </p>
                    </div>
                    <p className="break-all text-xs text-slate-600">Authoritative copy SHA-256 {r.authoritativeSha256}</p>
                    {r.yourRole === "controller" && r.status === "active" ? (
                      <a href={`/vault/${r.id}/authoritative-copy`} className="text-sm text-blue-800 underline">
                        Download the authoritative copy<span className="sr-only"> of {r.documentName}</span>
                      </a>
                    ) : null}
                    <details>
                      <summary className="cursor-pointer text-sm text-slate-800">Control history ({r.history.length})</summary>
                      <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
                        {r.history.map((h) => (
                          <li key={h.seq}>
                            {ACTIONS[h.action] ?? h.action}
                            {h.from ? <> · from {h.from.name}</> : null}
                            {h.to ? <> · to {h.to.name}</> : null} · {formatDateTime(h.at)}
                          </li>
                        ))}
                      </ol>
                    </details>
                    <RecordControlForms
                      recordId={r.id}
                      label={r.documentName}
                      role={r.yourRole === "none" ? "controller" : r.yourRole}
                      status={r.status}
                      pending={r.pendingTransferee !== null}
                      pledged={r.pledgee !== null}
                    />
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
