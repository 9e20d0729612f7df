import { formatDateTime } from "@/app/_lib/format";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { getSignerClosingPlan } from "@/lib/closings/get-signer-closing-plan";
import { AcknowledgeForm } from "./acknowledge-form";

/**
 * For a hybrid closing, the signer's plan in plain words: what they e-sign now, what they sign in
 * ink at the closing table (when, where, with whom) and what is only to read, with an "I received
 * it" button for each of those. Nothing for a package that is only e-signed.
 */
export async function ClosingPlan({ signingId }: { signingId: string }) {
  const { db, principal } = await requirePrincipal(`/signings/${signingId}`);
  const plan = await getSignerClosingPlan(db, { principal, packageId: signingId });
  if (!plan.hybrid) return null;
  const when = [plan.closingAt ? formatDateTime(plan.closingAt, "long") : null, plan.closingPlace, plan.settlementAgent ? `with ${plan.settlementAgent}` : null].filter(Boolean).join(", ");
  return (
    <section aria-labelledby="closing-plan-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800 shadow-sm" data-testid="closing-plan">
      <h2 id="closing-plan-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-700">
        Your closing
      </h2>
      {plan.esign.length > 0 ? (
        <div>
          <h3 className="font-semibold text-slate-900">
            {plan.esignOpensAt && plan.esignOpensAt > new Date() ? `E-sign from ${formatDateTime(plan.esignOpensAt)}` : "E-sign now"}
          </h3>
          <ul className="list-disc pl-5">
            {plan.esign.map((d) => (
              <li key={d.id}>
                {d.name}
                {d.done ? " — e-signed" : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {plan.atTable.length > 0 ? (
        <div>
          <h3 className="font-semibold text-slate-900">Signed in ink at the closing table</h3>
          <p>{when ? when : "The closing team will tell you when and where."}</p>
          <ul className="list-disc pl-5">
            {plan.atTable.map((d) => (
              <li key={d.id}>
                {d.name}
                {d.notarized ? " (before a notary: bring a photo ID)" : ""}
                {d.done ? " — received signed" : ""}
              </li>
            ))}
          </ul>
          <p className="text-slate-700">You can read them here now; you sign them on paper, not on this page.</p>
        </div>
      ) : null}
      {plan.toRead.length > 0 ? (
        <div className="space-y-2">
          <h3 className="font-semibold text-slate-900">Only to read</h3>
          <p className="text-slate-700">Nothing to sign: read each one and confirm you received it.</p>
          <ul className="space-y-2">
            {plan.toRead.map((d) => (
              <li key={d.id}>
                {d.acknowledged ? (
                  <span>{d.name} — you confirmed you received it</span>
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
