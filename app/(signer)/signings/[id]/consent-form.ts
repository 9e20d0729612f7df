import { z } from "zod";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { ESIGN_DISCLOSURE_VERSION } from "@/lib/signings/esign-disclosure";
import { recordSigningConsent } from "@/lib/signings/record-signing-consent";
import type { RequestEvidence } from "../../../_lib/request-evidence";
import { actionErrorMessage } from "./action-error-message";

export type ConsentFormState = { status: "idle" } | { status: "error"; message: string } | { status: "accepted"; consentedAt: string };

const ConsentFormSchema = z.object({
  signingId: z.string().min(1).max(64),
  accept: z.literal("yes", { error: "Tick the box to agree before you continue." }),
  disclosureVersion: z.literal(ESIGN_DISCLOSURE_VERSION, {
    error: "The disclosure was updated after you opened this page. Reload the page to read the current version.",
  }),
});

/**
 * The consent form's work behind `consentAction`: parse the form, record the acceptance once per
 * package (`recordSigningConsent`), and turn every refusal into a sentence for the form.
 */
export async function handleConsentForm(
  db: Db,
  { principal, evidence, formData }: { principal: Principal; evidence: RequestEvidence; formData: FormData },
): Promise<ConsentFormState> {
  const parsed = ConsentFormSchema.safeParse({
    signingId: formData.get("signingId"),
    accept: formData.get("accept"),
    disclosureVersion: formData.get("disclosureVersion"),
  });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "Reload the page and try again." };
  try {
    const { consent } = await recordSigningConsent(db, {
      principal,
      packageId: parsed.data.signingId,
      disclosureVersion: parsed.data.disclosureVersion,
      ...evidence,
    });
    return { status: "accepted", consentedAt: consent.consentedAt };
  } catch (error) {
    return { status: "error", message: actionErrorMessage(error, "We could not record your agreement. Try again.") };
  }
}
