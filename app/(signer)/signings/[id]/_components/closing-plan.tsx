import { getTranslations } from "next-intl/server";
import { formatDateTime } from "@/lib/format";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { getSignerClosingPlan } from "@/lib/closings/get-signer-closing-plan";
import type { Locale } from "@/lib/i18n/locales";
import { AcknowledgeForm } from "./acknowledge-form";

/**
 * For a hybrid closing, the signer's plan in plain words: what they e-sign now, what they sign in
 * ink at the closing table (when, where, with whom) and what is only to read, with an "I received
 * it" button for each of those, in the borrower's language. Nothing for a package that is only e-signed.
 */
export async function ClosingPlan({ signingId, locale }: { signingId: string; locale: Locale }) {
  const { db, principal } = await requirePrincipal(`/signings/${signingId}`, { signerOf: signingId });
  const plan = await getSignerClosingPlan(db, { principal, packageId: signingId });
  if (!plan.hybrid) return null;
  const t = await getTranslations({ locale, namespace: "closing" });
  const when = [
    plan.closingAt ? formatDateTime(plan.closingAt, "long", locale) : null,
    plan.closingPlace,
    plan.settlementAgent ? t("withAgent", { agent: plan.settlementAgent }) : null,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <section aria-labelledby="closing-plan-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800 shadow-sm" data-testid="closing-plan">
      <h2 id="closing-plan-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-700">
        {t("heading")}
      </h2>
      {plan.esign.length > 0 ? (
        <div>
          <h3 className="font-semibold text-slate-900">
            {plan.esignOpensAt && plan.esignOpensAt > new Date() ? t("esignFrom", { date: formatDateTime(plan.esignOpensAt, "medium", locale) }) : t("esignNow")}
          </h3>
          <ul className="list-disc pl-5">
            {plan.esign.map((d) => (
              <li key={d.id}>{d.done ? t("eSigned", { name: d.name }) : d.name}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {plan.atTable.length > 0 ? (
        <div>
          <h3 className="font-semibold text-slate-900">{t("atTable")}</h3>
          <p>{when ? when : t("whenUnknown")}</p>
          <ul className="list-disc pl-5">
            {plan.atTable.map((d) => (
              <li key={d.id}>{d.done ? t("receivedSigned", { name: d.name }) : d.notarized ? t("notarized", { name: d.name }) : d.name}</li>
            ))}
          </ul>
          <p className="text-slate-700">{t("readNow")}</p>
        </div>
      ) : null}
      {plan.toRead.length > 0 ? (
        <div className="space-y-2">
          <h3 className="font-semibold text-slate-900">{t("toRead")}</h3>
          <p className="text-slate-700">{t("toReadLead")}</p>
          <ul className="space-y-2">
            {plan.toRead.map((d) => (
              <li key={d.id}>
                {d.acknowledged ? (
                  <span>{t("acknowledged", { name: d.name })}</span>
                ) : (
                  <AcknowledgeForm signingId={signingId} documentId={d.id} name={d.name} />
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
