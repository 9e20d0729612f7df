"use server";

import { revalidatePath } from "next/cache";
import { requestEvidence } from "../../../_lib/request-evidence";
import { requirePrincipal } from "../../../_lib/require-principal";
import { handleConsentForm, type ConsentFormState } from "./consent-form";

/** The signer accepts the electronic-records disclosure of a package (once; a repeat is harmless). */
export async function consentAction(_previous: ConsentFormState, formData: FormData): Promise<ConsentFormState> {
  const signingId = String(formData.get("signingId") ?? "");
  const { db, principal } = await requirePrincipal(`/signings/${encodeURIComponent(signingId)}`);
  const state = await handleConsentForm(db, { principal, evidence: await requestEvidence(), formData });
  if (state.status === "accepted") revalidatePath(`/signings/${signingId}`);
  return state;
}
