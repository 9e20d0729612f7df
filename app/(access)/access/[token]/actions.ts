"use server";

import { redirect } from "next/navigation";
import { prepareDatabase } from "@/lib/boot";
import { openAccessLink } from "@/lib/signer-access/open-access-link";
import { requestNewAccessLink } from "@/lib/signer-access/request-new-access-link";
import { requestEvidence } from "../../../_lib/request-evidence";
import { setLinkSessionCookie } from "@/lib/next/link-sessions";

function tokenOf(formData: FormData): string {
  const value = formData.get("token");
  return typeof value === "string" ? value.slice(0, 100) : "";
}

/**
 * The interstitial's button: exchanges the link for a signer session cookie and goes to the
 * package (which sends an unproven session to the proof page). A link that cannot be used reloads
 * the link's page, which then offers a new one.
 */
export async function openAccessLinkAction(formData: FormData): Promise<void> {
  const token = tokenOf(formData);
  const { db } = await prepareDatabase();
  const evidence = await requestEvidence();
  const opened = await openAccessLink(db, { token, ...evidence });
  if (!opened) redirect(`/access/${encodeURIComponent(token)}`);
  await setLinkSessionCookie("signer", opened.packageId, opened.sessionValue);
  redirect(`/signings/${opened.packageId}`);
}

/** "Email me a new link": the same answer page whatever happened (`requestNewAccessLink`). */
export async function requestNewAccessLinkAction(formData: FormData): Promise<void> {
  const { db } = await prepareDatabase();
  const { ipAddress } = await requestEvidence();
  await requestNewAccessLink(db, { token: tokenOf(formData), clientIp: ipAddress ?? "unknown" });
  redirect("/access/sent");
}
