"use server";

import { redirect } from "next/navigation";
import { prepareDatabase } from "@/lib/boot";
import { openAgentLink } from "@/lib/settlement-agent/open-agent-link";
import { setLinkSessionCookie } from "@/lib/next/link-sessions";
import { requestEvidence } from "../../../_lib/request-evidence";

/**
 * The link page's button: exchanges the one-time link for the agent's session cookie and goes to the
 * closing, whose address carries no token. A link that cannot be used reloads its page ("no longer works").
 */
export async function openAgentLinkAction(formData: FormData): Promise<void> {
  const value = formData.get("token");
  const token = typeof value === "string" ? value.slice(0, 100) : "";
  const { db } = await prepareDatabase();
  const opened = await openAgentLink(db, { token, ...(await requestEvidence()) });
  if (!opened) redirect(`/agent/${encodeURIComponent(token)}`);
  await setLinkSessionCookie("agent", opened.packageId, opened.sessionValue, opened.expiresAt);
  redirect(`/agent/closing/${opened.packageId}`);
}
