"use server";

import { redirect } from "next/navigation";
import { prepareDatabase } from "@/lib/boot";
import { isUuid } from "@/lib/ids";
import { endInPersonSigning } from "@/lib/in-person/end-in-person-signing";
import { clearLinkSessionCookie, currentLinkSession } from "@/lib/next/link-sessions";
import { requestEvidence } from "../../../_lib/request-evidence";

/**
 * "Hand the device back": ends this browser's in-person session for the package (the signer's cookie
 * opens nothing any more) and goes to the sign-in page, so the device needs its host's own sign-in
 * before it shows anything else. Like the other link holders' forms it is a plain form post: the
 * signer session is what it acts on, and there is no account principal to wrap it in.
 */
export async function handBackAction(formData: FormData): Promise<void> {
  const packageId = String(formData.get("signingId") ?? "");
  if (isUuid(packageId)) {
    const { db } = await prepareDatabase();
    const context = await currentLinkSession(db, "signer", packageId);
    if (context?.session.authMethod === "in_person") {
      await endInPersonSigning(db, { sessionId: context.session.id, ipAddress: (await requestEvidence()).ipAddress });
    }
    await clearLinkSessionCookie("signer", packageId);
  }
  redirect(`/sign-in?signedOut=1&callbackUrl=${encodeURIComponent(isUuid(packageId) ? `/signings/${packageId}` : "/")}`);
}
