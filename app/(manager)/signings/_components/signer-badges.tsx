import { StatusBadge } from "@/components/status-badge";
import type { SignerProgress } from "@/lib/signings/list-signer-progress";
import { formatShortDateTime } from "@/lib/format";


/** The moment that goes with a signer's status (notified, viewed, signed or declined). */
function statusTime(signer: SignerProgress): Date | null {
  switch (signer.status) {
    case "signed":
      return signer.signedAt;
    case "declined":
      return signer.declinedAt;
    case "viewed":
      return signer.viewedAt;
    case "notified":
      return signer.notifiedAt;
    default:
      return null;
  }
}

/** Each signer as a small badge: name, status in words and its time (UTC), in routing order. */
export function SignerBadges({ signers }: { signers: SignerProgress[] }) {
  if (signers.length === 0) return <span className="text-sm text-slate-600">No signers yet</span>;
  const signed = signers.filter((s) => s.status === "signed").length;
  return (
    <div className="space-y-1">
      <p className="text-xs font-medium text-slate-700">
        {signed} of {signers.length} signed
      </p>
      <ul className="flex flex-wrap gap-1.5" aria-label="Signers">
        {signers.map((signer) => {
          const at = statusTime(signer);
          return (
            <li key={signer.id} className="inline-flex items-center gap-1 rounded-md border border-slate-200 bg-slate-50 px-1.5 py-0.5 text-xs text-slate-800">
              <span className="font-medium">{signer.name}</span>
              {signer.role === "co_signer" ? <span className="text-slate-600">(co-signer)</span> : null}
              <StatusBadge status={signer.status} />
              {at ? (
                <time dateTime={at.toISOString()} className="whitespace-nowrap text-slate-600">
                  {formatShortDateTime(at)}
                </time>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
