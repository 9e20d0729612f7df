import { getMyTexts } from "@/lib/sms/my-texts";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { StopTextsForm } from "./stop-texts-form";

/**
 * "Text messages" on the signer's page, only for a signer who is texted (a mobile number and a
 * recorded consent): stop them here, or the note that they are stopped and how to start them again.
 */
export async function StopTexts({ signingId, organizationName }: { signingId: string; organizationName: string }) {
  const { db, principal } = await requirePrincipal(`/signings/${signingId}`);
  const texts = await getMyTexts(db, { principal, packageId: signingId });
  if (!texts) return null;
  return (
    <section aria-labelledby="texts-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="texts-heading" className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-700">
        Text messages
      </h2>
      {texts.stopped ? (
        <p className="text-sm text-slate-800">
          You stopped text messages from {organizationName} to the number ending in {texts.phoneEnding}. Emails continue. To get texts again,
          reply START to one of their texts.
        </p>
      ) : (
        <StopTextsForm signingId={signingId} phoneEnding={texts.phoneEnding} />
      )}
    </section>
  );
}
