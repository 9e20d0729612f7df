import type { Metadata } from "next";
import { connection } from "next/server";
import { prepareDatabase } from "@/lib/boot";
import { viewAccessLink } from "@/lib/signer-access/open-access-link";
import { AccessCard, primaryButton, secondaryButton } from "../_card";
import { openAccessLinkAction, requestNewAccessLinkAction } from "./actions";

// The token is in the address: never send it on as a Referer, never index the page.
export const metadata: Metadata = { title: "Your signing package", referrer: "no-referrer", robots: { index: false, follow: false } };

type Props = { params: Promise<{ token: string }> };

/**
 * `/access/<token>`, the link in a signer's emails. The GET only shows the package and one button
 * (mail scanners prefetch links: reading must burn nothing); the button's POST opens the link.
 * A link that cannot be used any more offers "Email me a new link".
 */
export default async function AccessLinkPage({ params }: Props) {
  await connection();
  const { token } = await params;
  const { db } = await prepareDatabase();
  const view = await viewAccessLink(db, { token });
  if (view.state === "unusable") {
    return (
      <AccessCard heading="This link no longer works">
        <p>
          Links to a signing package work once, and stop working when a newer link is sent or the package closes. We can email a new link to the
          address the sender has for you.
        </p>
        <form action={requestNewAccessLinkAction}>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className={secondaryButton}>
            Email me a new link
          </button>
        </form>
      </AccessCard>
    );
  }
  return (
    <AccessCard heading={view.title}>
      <p>
        <strong>{view.senderName}</strong> sent you documents to review and sign, {view.signerName}.
      </p>
      <form action={openAccessLinkAction}>
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={primaryButton}>
          Open the documents
        </button>
      </form>
      <p className="text-sm text-slate-600">This link works once. If you open it again later, you can ask for a new one.</p>
    </AccessCard>
  );
}
