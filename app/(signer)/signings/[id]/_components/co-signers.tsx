import { useLocale, useTranslations } from "next-intl";
import { joinNames } from "@/lib/format";
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
  const locale = useLocale() === "es" ? "es" : "en";
  const together = parallelNow(view);
  return (
    <>
      {together ? <p className="mb-2 text-sm text-slate-800">{t("parallelNow", { names: joinNames(together, locale) })}</p> : null}
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
    </>
  );
}

const DONE = ["signed", "declined"];

/**
 * The others who sign alongside the caller now ("You and Casey can sign now, in any order."): when
 * the caller's turn has come and others of the same routing order have not signed yet. Null otherwise.
 */
export function parallelNow(view: SignerSigningView): string[] | null {
  if (!["sent", "in_progress"].includes(view.status) || DONE.includes(view.me.status)) return null;
  if (view.coSigners.some((s) => s.routingOrder < view.me.routingOrder && s.status !== "signed")) return null;
  const alongside = view.coSigners.filter((s) => s.routingOrder === view.me.routingOrder && !DONE.includes(s.status)).map((s) => s.name);
  return alongside.length > 0 ? alongside : null;
}
