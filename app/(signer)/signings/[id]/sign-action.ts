"use server";

import { revalidatePath } from "next/cache";
import { contextAction } from "../../../_lib/validated-action";
import { handleSignForm, type SignFormState } from "./sign-form";

const packagePath = (formData: FormData) => `/signings/${encodeURIComponent(String(formData.get("signingId") ?? ""))}`;

const sign = contextAction<SignFormState>(
  async (context) => {
    const state = await handleSignForm(context.db, context);
    if (state.status === "signed") revalidatePath(packagePath(context.formData));
    return state;
  },
  { returnTo: packagePath, signerOf: (formData) => String(formData.get("signingId") ?? "") },
);

/** The signer signs one document of a package with their adopted signature. */
export async function signAction(previous: SignFormState, formData: FormData): Promise<SignFormState> {
  return sign(previous, formData);
}
