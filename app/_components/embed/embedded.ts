import { headers } from "next/headers";
import { EMBED_ORIGINS_HEADER } from "@/lib/embedded/frame-cookie";
import type { SignerPackagePage } from "@/lib/views/get-signer-package-page";
import type { EmbedMessageType } from "./embed-poster";

/** The origins allowed to frame this page when it is rendered inside an embedded signing frame (set by the proxy), else null. */
export async function embeddedOrigins(): Promise<string[] | null> {
  const value = (await headers()).get(EMBED_ORIGINS_HEADER);
  return value ? value.split(" ").filter(Boolean) : null;
}

/** What the parent is told about the signer's package, from the page's state. */
export function embedEventsOf(page: Pick<SignerPackagePage, "state" | "view" | "bank">): EmbedMessageType[] {
  const events: EmbedMessageType[] = [];
  if (page.state.kind === "signed") events.push("signed");
  if (page.state.kind === "declined" && page.state.byMe) events.push("declined");
  if (page.view.status === "completed") events.push("completed");
  if (page.bank?.connected) events.push("bank_linked");
  return events;
}
