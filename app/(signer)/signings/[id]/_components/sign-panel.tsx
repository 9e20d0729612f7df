"use client";

// Placeholder with the agreed props; the sign teammate's consent, adoption and signing panel replaces this file at merge.
export type SignPanelProps = {
  signingId: string;
  signerName: string;
  consentGiven: boolean;
  canSign: boolean;
  disabledReason: string | null;
  documents: { id: string; name: string; sha256: string; signed: boolean; signedAt: string | null }[];
};

export function SignPanel({ canSign, disabledReason, documents }: SignPanelProps) {
  return (
    <div className="space-y-2">
      <ul className="space-y-1 text-sm">
        {documents.map((d) => (
          <li key={d.id}>
            {d.name}: {d.signed ? "signed" : "not signed yet"}
          </li>
        ))}
      </ul>
      {canSign ? null : <p className="text-sm text-slate-700">{disabledReason}</p>}
    </div>
  );
}
