import type { SigningVaultDelivery, VaultDeliveryStatus } from "@/lib/vault/list-signing-vault-deliveries";
import { formatDateTime } from "@/lib/format";

const OUTCOME: Record<VaultDeliveryStatus, { label: string; className: string }> = {
  delivered: { label: "Delivered", className: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  retrying: { label: "Failing, will retry", className: "bg-amber-50 text-amber-900 ring-amber-200" },
  failed: { label: "Gave up", className: "bg-red-50 text-red-800 ring-red-200" },
  pending: { label: "Queued", className: "bg-slate-100 text-slate-800 ring-slate-300" },
  not_configured: { label: "Not sent (no vault configured)", className: "bg-slate-100 text-slate-700 ring-slate-300" },
};

function attemptText(a: SigningVaultDelivery["attempts"][number]): string {
  const answer = a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? "no answer");
  return `Attempt ${a.attempt}: ${answer}${a.statusCode !== null && a.error && a.error !== `HTTP ${a.statusCode}` ? ` (${a.error})` : ""} · ${a.durationMs} ms · ${formatDateTime(a.at)}`;
}

/** One row per e-signature: which signer and document, the outcome, and every attempt. */
export function VaultDeliveries({ deliveries }: { deliveries: SigningVaultDelivery[] }) {
  if (deliveries.length === 0) return <p className="text-sm text-slate-700">Nothing signed yet, so nothing has been sent to the vault.</p>;
  return (
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Vault deliveries, one row per signed document">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <thead className="border-b border-slate-300 text-xs uppercase tracking-wide text-slate-700">
          <tr>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Signed
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Signer and document
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Outcome
            </th>
            <th scope="col" className="py-2 font-semibold">
              Attempts
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {deliveries.map((d) => (
            <tr key={d.eSignatureId}>
              <td className="py-2 pr-3 align-top whitespace-nowrap text-slate-800">
                <time dateTime={d.signedAt}>{formatDateTime(d.signedAt)}</time>
              </td>
              <td className="py-2 pr-3 align-top text-slate-900">
                {d.signerName} · <span className="text-slate-700">{d.documentName}</span>
              </td>
              <td className="py-2 pr-3 align-top">
                <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${OUTCOME[d.status].className}`}>
                  {OUTCOME[d.status].label}
                </span>
                {d.nextAttemptAt ? <span className="block text-xs text-slate-700">Next try {formatDateTime(d.nextAttemptAt)}</span> : null}
              </td>
              <td className="py-2 align-top text-slate-800">
                {d.attempts.length === 0 ? (
                  "None yet"
                ) : (
                  <ol className="space-y-0.5">
                    {d.attempts.map((a) => (
                      <li key={a.attempt}>{attemptText(a)}</li>
                    ))}
                  </ol>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
