import { getTranslations } from "next-intl/server";
import { SubmitButton } from "@/components/ui/button";
import type { Locale } from "@/lib/i18n/locales";
import { handBackAction } from "../hand-back-action";

/**
 * On an in-person session's pages: whose desk this is, and the one way out besides finishing, handing
 * the device back (which needs the host's own sign-in). A plain form: it works before hydration.
 */
export function InPersonBanner({ signingId, text }: { signingId: string; text: { label: string; lead: string; handBack: string; handingBack: string } }) {
  return (
    <section aria-label={text.label} className="flex flex-col gap-3 rounded-xl border border-blue-200 bg-blue-50 p-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-blue-950">{text.lead}</p>
      <form action={handBackAction}>
        <input type="hidden" name="signingId" value={signingId} />
        <SubmitButton variant="secondary" pendingLabel={text.handingBack}>
          {text.handBack}
        </SubmitButton>
      </form>
    </section>
  );
}

/**
 * The banner in the borrower's language, for every page of the signer's flow (the package page, the
 * bank step, the done page): nothing unless this browser's session is an in-person one (`hostName`
 * from its `in_person_signings` row), so a signer at the desk can always hand the device back,
 * wherever the flow ends.
 */
export async function SignerInPersonBanner({ signingId, hostName, locale }: { signingId: string; hostName: string | null; locale: Locale }) {
  if (hostName === null) return null;
  const t = await getTranslations({ locale, namespace: "package" });
  return (
    <InPersonBanner
      signingId={signingId}
      text={{
        label: t("inPersonLabel"),
        lead: t("inPersonLead", { host: hostName }),
        handBack: t("inPersonHandBack"),
        handingBack: t("inPersonHandingBack"),
      }}
    />
  );
}
