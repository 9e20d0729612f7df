import type { Metadata } from "next";
import { NEW_LINK_ANSWER } from "@/lib/signer-access/request-new-access-link";
import { AccessCard } from "../_card";

export const metadata: Metadata = { title: "Check your email", robots: { index: false, follow: false } };

/** The one answer to "Email me a new link". */
export default function NewLinkSentPage() {
  return (
    <AccessCard heading="Check your email">
      <p role="status">{NEW_LINK_ANSWER}</p>
    </AccessCard>
  );
}
