import { StatusBadge } from "@/components/status-badge";
import type { SignerSigningView } from "@/lib/signings/build-signer-signing-view";

/**
 * Everyone who signs the package, the caller included, in routing order: name, role, order and
 * status. Never contact details. Signers sharing an order number sign at the same time.
 */
export function CoSigners({ view }: { view: SignerSigningView }) {
  const everyone = [
    { id: view.me.signerId, name: view.me.name, role: view.me.role, routingOrder: view.me.routingOrder, status: view.me.status, me: true },
    ...view.coSigners.map((s) => ({ ...s, me: false })),
  ].sort((a, b) => a.routingOrder - b.routingOrder || Number(b.me) - Number(a.me));
  return (
    <ul aria-label="Signers" className="space-y-2">
      {everyone.map((s) => (
        <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span className="min-w-0">
            <span className="font-medium text-slate-900">{s.name}</span>
            {s.me ? <span className="text-slate-700"> (you)</span> : null}
            <span className="block text-xs text-slate-700">
              {s.role === "co_signer" ? "Co-signer" : "Signer"} · signs {ordinal(s.routingOrder)}
            </span>
          </span>
          <StatusBadge status={s.status} />
        </li>
      ))}
    </ul>
  );
}

function ordinal(n: number): string {
  const words = ["first", "second", "third", "fourth", "fifth"];
  return words[n - 1] ?? `in turn ${n}`;
}
