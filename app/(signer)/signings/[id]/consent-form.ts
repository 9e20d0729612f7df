import { z } from "zod";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { ESIGN_DISCLOSURE_VERSION } from "@/lib/signings/esign-disclosure";
import { recordSigningConsent } from "@/lib/signings/record-signing-consent";
import type { RequestEvidence } from "../../../_lib/request-evidence";
import { actionErrorMessage } from "./action-error-message";

export type ConsentFormState = { status: "idle" } | { status: "error"; message: string } | { status: "accepted"; consentedAt: string };

function consentFormSchema(locale: Locale) {
  const t = borrowerTranslator(locale, "consent");
  return z.object({
    signingId: z.string().min(1).max(64),
    accept: z.literal("yes", { error: t("errorTick") }),
    disclosureVersion: z.literal(ESIGN_DISCLOSURE_VERSION, { error: t("errorVersion") }),
  });
}

/**
 * The consent form's work behind `consentAction`: parse the form, record the acceptance once per
 * package (`recordSigningConsent`) with the disclosure's version and the language it was shown in
 * (`disclosureLanguage`, the page's locale), and turn every refusal into a sentence in that language.
 */
export async function handleConsentForm(
  db: Db,
  { principal, evidence, formData }: { principal: Principal; evidence: RequestEvidence; formData: FormData },
): Promise<ConsentFormState> {
  const shown = formData.get("disclosureLanguage");
  const language: Locale = isLocale(shown) ? shown : "en";
  const t = borrowerTranslator(language, "consent");
  const parsed = consentFormSchema(language).safeParse({
    signingId: formData.get("signingId"),
    accept: formData.get("accept"),
    disclosureVersion: formData.get("disclosureVersion"),
  });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? t("errorReload") };
  try {
    const { consent } = await recordSigningConsent(db, {
      principal,
      packageId: parsed.data.signingId,
      disclosureVersion: parsed.data.disclosureVersion,
      disclosureLanguage: language,
      ...evidence,
    });
    return { status: "accepted", consentedAt: consent.consentedAt };
  } catch (error) {
    return { status: "error", message: actionErrorMessage(error, t("errorFailed"), language) };
  }
}
