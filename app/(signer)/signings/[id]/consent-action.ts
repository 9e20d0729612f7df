"use server";

import { revalidatePath } from "next/cache";
import { contextAction } from "../../../_lib/validated-action";
import { handleConsentForm, type ConsentFormState } from "./consent-form";

const packagePath = (formData: FormData) => `/signings/${encodeURIComponent(String(formData.get("signingId") ?? ""))}`;

const consent = contextAction<ConsentFormState>(
  async (context) => {
    const state = await handleConsentForm(context.db, context);
    if (state.status === "accepted") revalidatePath(packagePath(context.formData));
    return state;
  },
  { returnTo: packagePath, signerOf: (formData) => String(formData.get("signingId") ?? "") },
);

/** The signer accepts the electronic-records disclosure of a package (once; a repeat is harmless). */
export async function consentAction(previous: ConsentFormState, formData: FormData): Promise<ConsentFormState> {
  return consent(previous, formData);
}
