"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { IdentificationSchema } from "@/lib/in-person/identification";
import { startInPersonSigning } from "@/lib/in-person/start-in-person-signing";
import { setLinkSessionCookie } from "@/lib/next/link-sessions";
import { endHostSession } from "../../../../_lib/end-host-session";
import { validatedAction, type FormState } from "../../../../_lib/validated-action";

const StartInPersonSchema = IdentificationSchema.extend({
  signingId: z.uuid({ error: "This package id is not valid." }),
  signerId: z.uuid({ error: "Choose who signs now." }),
  checked: z.literal("on", { error: "Confirm that you compared the identification with the person in front of you." }),
});

/**
 * "Hand the device over": records the identification and opens the signer's session on this browser
 * (`startInPersonSigning`, the same rules as everywhere), signs the host out of their own account
 * here, and opens the signer's package. Getting the device back asks for the host's sign-in again.
 */
export const startInPersonAction = validatedAction<typeof StartInPersonSchema, undefined>(
  StartInPersonSchema,
  async (input, { db, principal, evidence }): Promise<FormState> => {
    const started = await startInPersonSigning(db, {
      principal,
      packageId: input.signingId,
      signerId: input.signerId,
      identification: { idType: input.idType, idIssuer: input.idIssuer, idLastFour: input.idLastFour },
      ipAddress: evidence.ipAddress,
      userAgent: evidence.userAgent,
    });
    await setLinkSessionCookie("signer", started.packageId, started.sessionValue);
    await endHostSession();
    redirect(`/signings/${started.packageId}`);
  },
  { returnTo: (formData) => `/signings/${String(formData.get("signingId") ?? "")}/in-person` },
);
