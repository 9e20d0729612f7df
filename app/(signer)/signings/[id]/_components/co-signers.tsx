import { useTranslations } from "next-intl";
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
  const t = useTranslations("signers");
  return (
    <ul aria-label={t("list")} className="space-y-2">
      {everyone.map((s) => (
        <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span className="min-w-0">
            <span className="font-medium text-slate-900">{s.name}</span>
            {s.me ? <span className="text-slate-700"> {t("you")}</span> : null}
            <span className="block text-xs text-slate-700">
              {s.role === "co_signer" ? t("coSigner") : t("signer")} · {t("signsOrder", { order: String(s.routingOrder) })}
            </span>
          </span>
          <StatusBadge status={s.status} label={t("status", { status: s.status })} />
        </li>
      ))}
    </ul>
  );
}
