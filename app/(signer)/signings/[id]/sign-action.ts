"use server";

import { revalidatePath } from "next/cache";
import { requestEvidence } from "../../../_lib/request-evidence";
import { requirePrincipal } from "../../../_lib/require-principal";
import { handleSignForm, type SignFormState } from "./sign-form";

/** The signer signs one document of a package with their adopted signature. */
export async function signAction(_previous: SignFormState, formData: FormData): Promise<SignFormState> {
  const signingId = String(formData.get("signingId") ?? "");
  const { db, principal } = await requirePrincipal(`/signings/${encodeURIComponent(signingId)}`);
  const state = await handleSignForm(db, { principal, evidence: await requestEvidence(), formData });
  if (state.status === "signed") revalidatePath(`/signings/${signingId}`);
  return state;
}
