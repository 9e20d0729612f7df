import { getTranslations } from "next-intl/server";
import type { Locale } from "@/lib/i18n/locales";
import { getMyTexts } from "@/lib/sms/my-texts";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { StopTextsForm } from "./stop-texts-form";

/**
 * "Text messages" on the signer's page, only for a signer who is texted (a mobile number and a
 * recorded consent): stop them here, or the note that they are stopped and how to start them again.
 */
export async function StopTexts({ signingId, organizationName, locale }: { signingId: string; organizationName: string; locale: Locale }) {
  const { db, principal } = await requirePrincipal(`/signings/${signingId}`, { signerOf: signingId });
  const texts = await getMyTexts(db, { principal, packageId: signingId });
  if (!texts) return null;
  const t = await getTranslations({ locale, namespace: "texts" });
  return (
    <section aria-labelledby="texts-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="texts-heading" className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-700">
        {t("heading")}
      </h2>
      {texts.stopped ? (
        <p className="text-sm text-slate-800">
          {t("stopped", { organization: organizationName, ending: texts.phoneEnding })}
        </p>
      ) : (
        <StopTextsForm signingId={signingId} phoneEnding={texts.phoneEnding} />
      )}
    </section>
  );
}
