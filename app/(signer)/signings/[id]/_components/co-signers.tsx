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
  const together = parallelNow(view);
  return (
    <>
      {together ? <p className="mb-2 text-sm text-slate-800">{together}</p> : null}
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
    </>
  );
}

const DONE = ["signed", "declined"];

/**
 * "You and Casey can sign now." when the caller's turn has come and others of the same routing
 * order have not signed yet: they sign at the same time, in any order.
 */
export function parallelNow(view: SignerSigningView): string | null {
  if (!["sent", "in_progress"].includes(view.status) || DONE.includes(view.me.status)) return null;
  if (view.coSigners.some((s) => s.routingOrder < view.me.routingOrder && s.status !== "signed")) return null;
  const alongside = view.coSigners.filter((s) => s.routingOrder === view.me.routingOrder && !DONE.includes(s.status)).map((s) => s.name);
  if (alongside.length === 0) return null;
  const names = alongside.length === 1 ? alongside[0] : `${alongside.slice(0, -1).join(", ")} and ${alongside.at(-1)}`;
  return `You and ${names} can sign now, in any order.`;
}

function ordinal(n: number): string {
  const words = ["first", "second", "third", "fourth", "fifth"];
  return words[n - 1] ?? `in turn ${n}`;
}
